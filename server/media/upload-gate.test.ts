// The caps on uploads in flight: per address, per account, bytes per process; a release frees exactly what was held.
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors';
import { TASK_MESSAGES, UPLOADS_IN_FLIGHT } from '../../src/lib/product-rules';
import { createUploadGate } from './upload-gate';

const MB = 1024 * 1024;

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('upload gate', () => {
  it('refuses a third upload from one address with 429 and Retry-After, and lets it in once one is released', () => {
    const gate = createUploadGate({ perAccount: 10, perClient: 2, processBytes: 1000 * MB });
    const first = gate.enter('203.0.113.5', MB);
    gate.enter('203.0.113.5', MB);
    const refused = refusal(() => gate.enter('203.0.113.5', MB));
    expect(refused.status).toBe(429);
    expect(refused.headers['Retry-After']).toBe(String(UPLOADS_IN_FLIGHT.retryAfterS));
    expect(refused.message).toBe(TASK_MESSAGES.uploadsBusyClient(2));
    // Another address is not held back by this one.
    expect(() => gate.enter('198.51.100.7', MB)).not.toThrow();
    first.release();
    first.release();
    expect(() => gate.enter('203.0.113.5', MB)).not.toThrow();
    expect(() => gate.enter('203.0.113.5', MB)).toThrow(AppError);
  });

  it('counts an account across addresses once it is claimed', () => {
    const gate = createUploadGate({ perAccount: 1, perClient: 10, processBytes: 1000 * MB });
    const first = gate.enter('a', MB);
    first.claimAccount('user-1');
    const second = gate.enter('b', MB);
    expect(refusal(() => second.claimAccount('user-1')).message).toBe(TASK_MESSAGES.uploadsBusyAccount(1));
    second.release();
    first.release();
    expect(gate.inFlight()).toEqual({ uploads: 0, bytes: 0 });
    expect(() => gate.enter('b', MB).claimAccount('user-1')).not.toThrow();
  });

  it('holds the bytes announced per process, yet always lets one upload in', () => {
    const gate = createUploadGate({ perAccount: 10, perClient: 10, processBytes: 150 * MB });
    const big = gate.enter('a', 200 * MB);
    expect(gate.inFlight()).toEqual({ uploads: 1, bytes: 200 * MB });
    expect(refusal(() => gate.enter('b', MB)).message).toBe(TASK_MESSAGES.uploadsBusyServer);
    big.release();
    gate.enter('b', 100 * MB);
    gate.enter('c', 50 * MB);
    expect(() => gate.enter('d', 1)).toThrow(AppError);
  });
});
