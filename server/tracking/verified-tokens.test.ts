// Remembered token checks: a remembered token still expires, a forged one is never remembered, the oldest is forgotten
// first.
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { TRACKING_TOKEN } from '../../src/lib/product-rules';
import { verifiedTokens } from './verified-tokens';
import { batchKey, issueToken } from './token';

const SECRET = 'sessions-test-secret-sessions-test-0123';

describe('verifiedTokens', () => {
  it('answers the claims and a batch key that signs as the hex ak does', () => {
    const sessions = verifiedTokens(() => SECRET);
    const { token, claims } = issueToken(SECRET, 'k', 'd', 1000);
    const session = sessions.open(token, 2000)!;
    expect(session.claims).toEqual(claims);
    const hex = batchKey(SECRET, token);
    expect(createHmac('sha256', session.ak).update('x').digest('hex')).toBe(
      createHmac('sha256', Buffer.from(hex, 'hex')).update('x').digest('hex'),
    );
  });

  it('checks a token once: the secret is read only on the first sight of it', () => {
    let reads = 0;
    const sessions = verifiedTokens(() => (reads++, SECRET));
    const { token } = issueToken(SECRET, 'k', 'd', 1000);
    sessions.open(token, 2000);
    const first = reads;
    for (let i = 0; i < 5; i++) expect(sessions.open(token, 3000 + i)).not.toBeNull();
    expect(reads).toBe(first);
  });

  it('a remembered token still expires, and forged or foreign tokens are refused every time', () => {
    const sessions = verifiedTokens(() => SECRET);
    const { token } = issueToken(SECRET, 'k', 'd', 1000);
    expect(sessions.open(token, 1000)).not.toBeNull();
    expect(sessions.open(token, 1000 + TRACKING_TOKEN.ttlMs)).toBeNull();
    expect(sessions.open(token, 1000)).not.toBeNull(); // checked afresh, not answered from memory
    const foreign = issueToken('another-secret-another-secret-another-0123', 'k', 'd', 1000).token;
    expect(sessions.open(foreign, 2000)).toBeNull();
    expect(sessions.open(`${token}x`, 2000)).toBeNull();
    expect(sessions.open('garbage', 2000)).toBeNull();
  });

  it('keeps at most `max` tokens, forgetting the oldest first', () => {
    let reads = 0;
    const sessions = verifiedTokens(() => (reads++, SECRET), 2);
    const [a, b, c] = ['a', 'b', 'c'].map((d) => issueToken(SECRET, 'k', d, 1000).token) as [string, string, string];
    for (const t of [a, b, c]) sessions.open(t, 2000);
    const before = reads;
    sessions.open(c, 2000);
    expect(reads).toBe(before); // still remembered
    sessions.open(a, 2000);
    expect(reads).toBeGreaterThan(before); // forgotten, checked again
  });
});
