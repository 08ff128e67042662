// The credit balance islands show, derived from the session, with the local +500 of an invitation (SPEC.md §9).
import { atom, type ReadableAtom } from 'nanostores';
import { $user } from './signed-in';

const credits = atom<number | null>(null);
/**
 * The signed-in user's balance, null for a guest; kept in step by a subscription, as $loggedIn is (no computed() code).
 */
export const $credits: ReadableAtom<number | null> = credits;
$user.subscribe((user) => credits.set(user?.userPoints ?? null));

/** SPEC.md §9 "Invitation gives 500 credits, added locally": the balance changes at once, before any refresh. */
export function addCredits(amount: number): void {
  const user = $user.get();
  if (user) $user.set({ ...user, userPoints: user.userPoints + amount });
}
