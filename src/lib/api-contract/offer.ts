// What this server offers, in one answer (GET /api-playground/task/v1/features): features, payments and sign-in
// methods.
import { z } from 'zod';
import { FEATURES, NO_MODEL_PRICES, RUN_OPTION_NAMES, type RunOption } from '../product-rules';

/** One feature: whether this server can run it, with which engine, and at what price (server/routes/features.ts). */
export const featureStateSchema = z.object({
  feature: z.enum(FEATURES),
  available: z.boolean(),
  /**
   * The engine a run goes to first, and what people are told it is (ENGINE_LABELS); null when none serves the feature.
   */
  engine: z.string().nullable(),
  engineLabel: z.string().nullable(),
  /**
   * Whether a run may use an AI model (some engine of the feature's chain does); false for the offline engines alone.
   */
  usesModel: z.boolean(),
  /** NO_MODEL_PRICE of this server: runs with no AI model are free or charged the full price. */
  noModelPrice: z.enum(NO_MODEL_PRICES),
  /**
   * For people, e.g. "Free here: preview engine (no AI model)", "fal.ai: 1 credit per 250 characters", "Not available
   * on this server".
   */
  priceNote: z.string(),
  /**
   * Advanced settings the serving engine honours (src/lib/product-rules/run-options.ts); absent from servers that
   * predate them.
   */
  options: z.array(z.enum(RUN_OPTION_NAMES as [RunOption, ...RunOption[]])).optional(),
  /** Languages (primary subtags) whose voices the serving engine speaks; absent when it speaks every voice. */
  languages: z.array(z.string()).optional(),
});

/** Whether credit packs can be bought here (Stripe keys set); the same as GET /payment/packs `enabled`. */
export const paymentsOfferSchema = z.object({ enabled: z.boolean() });

/** The sign-in methods this server offers: email codes always, Google and GitHub when their OAuth clients are set. */
export const signInOfferSchema = z.object({ email: z.literal(true), google: z.boolean(), github: z.boolean() });

/**
 * The answer's data. `payments` and `signIn` came later: a client reads their absence as "not said" and keeps its old
 * behaviour.
 */
export const offerSchema = z.object({
  list: z.array(featureStateSchema),
  payments: paymentsOfferSchema.optional(),
  signIn: signInOfferSchema.optional(),
});

export type FeatureState = z.infer<typeof featureStateSchema>;
export type PaymentsOffer = z.infer<typeof paymentsOfferSchema>;
export type SignInOffer = z.infer<typeof signInOfferSchema>;
export type OfferAnswer = z.infer<typeof offerSchema>;
