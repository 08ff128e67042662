// The credit balance islands show, derived from the session, with the local +500 of an invitation (SPEC.md §9).
import { computed } from 'nanostores';
import { $user } from './session';

export const $credits = computed($user, (user) => user?.userPoints ?? null);

/** SPEC.md §9 "Invitation gives 500 credits, added locally": the balance changes at once, before any refresh. */
export function addCredits(amount: number): void {
  const user = $user.get();
  if (user) $user.set({ ...user, userPoints: user.userPoints + amount });
}
