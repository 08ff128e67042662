// What this server offers (features, payments, sign-in methods), fetched once per page: every page part that says so
// reads it here.
import { atom, type ReadableAtom } from 'nanostores';
import { PLAYGROUND_PREFIX, REQUEST, type Feature } from '../product-rules';
import type { FeatureState, OfferAnswer, PaymentsOffer, SignInOffer } from '../api/types';

/** GET, public and cacheable (server/routes/features.ts). */
export const FEATURES_PATH = `${PLAYGROUND_PREFIX}/task/v1/features`;

export type FeatureMap = ReadonlyMap<Feature, FeatureState>;

/**
 * The answer as pages read it. payments and signIn are null when the server did not say (one that predates them, or
 * the original product's): pages then keep their old behaviour and let a click find out.
 */
export interface Offer {
  features: FeatureMap;
  payments: PaymentsOffer | null;
  signIn: SignInOffer | null;
}

const offer = atom<Offer | null>(null);
/**
 * null until the answer is here; it stays null when the server cannot be asked (pages then say nothing they cannot
 * know).
 */
export const $offer: ReadableAtom<Offer | null> = offer;

let pending: Promise<Offer> | null = null;

/** The answer, fetched once per page (a failed fetch may be tried again); rejects when the server cannot be asked. */
export function loadOffer(): Promise<Offer> {
  const base = (import.meta.env.PUBLIC_API_BASE ?? '').replace(/\/$/, '');
  pending ??= fetch(`${base}${FEATURES_PATH}`, { signal: AbortSignal.timeout(REQUEST.timeoutMs) })
    .then((res) => res.json() as Promise<{ code: number; data: OfferAnswer }>)
    .then((body) => {
      if (body.code !== 0) throw new Error(`features answer ${body.code}`);
      const loaded: Offer = {
        features: new Map(body.data.list.map((state) => [state.feature, state])),
        payments: body.data.payments ?? null,
        signIn: body.data.signIn ?? null,
      };
      offer.set(loaded);
      return loaded;
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}

/** Forgets the answer, so the next loadOffer() asks again (tests that change the server between cases). */
export function forgetOffer(): void {
  pending = null;
  offer.set(null);
}

/**
 * Whether Buy can work: false only when the server said payments are off; unknown counts as on (a click then finds
 * out).
 */
export function paymentsOff(value: Offer | null): boolean {
  return value?.payments?.enabled === false;
}

/**
 * Whether a sign-in method is offered: only once the answer is here, and then unless the server said it is not
 * configured.
 */
export function signInOffered(value: Offer | null, method: 'google' | 'github'): boolean {
  if (!value) return false;
  return value.signIn ? value.signIn[method] : true;
}

/** Whether any feature this server serves may use an AI model: only then may a page promise "with AI". */
export function servesAnyModel(value: Offer): boolean {
  return [...value.features.values()].some((state) => state.available && state.usesModel);
}
