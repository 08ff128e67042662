// The worker's HTTP transport: JSON POSTs with a timeout; anything that is not a JSON answer is a NetworkError.
import { retryAfterMs } from '../lib/tracking/retry';
import { NetworkError, type Transport } from '../lib/tracking/credentials';
import type { Answer } from '../lib/tracking/types';

export const fetchTransport: Transport = {
  async post<T>(url: string, body: unknown, timeoutMs: number): Promise<Answer<T>> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        credentials: 'omit',
      });
    } catch (error) {
      throw new NetworkError(error instanceof Error ? error.message : String(error));
    }
    let answer: unknown;
    try {
      answer = await response.json();
    } catch {
      throw new NetworkError(`HTTP ${response.status} without a JSON answer`);
    }
    if (typeof answer !== 'object' || answer === null || typeof (answer as Answer).code !== 'number') {
      throw new NetworkError(`HTTP ${response.status} with an answer that has no code`);
    }
    // Over a collector budget: the engine keeps the entries and waits at least this long (docs/tracking-protocol.md
    // "Retries").
    if (response.status === 429)
      return { ...(answer as Answer<T>), retryAfterMs: retryAfterMs(response.headers.get('Retry-After'), Date.now()) };
    return answer as Answer<T>;
  },
};
