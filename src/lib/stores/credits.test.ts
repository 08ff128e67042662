// The balance islands show follows the session's user, and an invitation adds its credits locally at once (SPEC.md §9).
import { afterEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../api';
import { $credits, addCredits } from './credits';
import { $user } from './signed-in';

afterEach(() => $user.set(undefined));

const user = (points: number) => ({ userId: 'u1', userEmail: 'a@example.com', userPoints: points }) as UserInfo;

describe('$credits', () => {
  it('is the user points, and null for a guest or while unknown', () => {
    expect($credits.get()).toBeNull();
    $user.set(null);
    expect($credits.get()).toBeNull();
    $user.set(user(120));
    expect($credits.get()).toBe(120);
  });

  it('addCredits raises the balance without a refresh and keeps the rest of the user', () => {
    $user.set(user(120));
    addCredits(500);
    expect($credits.get()).toBe(620);
    expect($user.get()).toMatchObject({ userId: 'u1', userEmail: 'a@example.com', userPoints: 620 });
  });

  it('addCredits does nothing for a guest', () => {
    $user.set(null);
    addCredits(500);
    expect($user.get()).toBeNull();
    expect($credits.get()).toBeNull();
  });
});
