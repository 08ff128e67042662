// Caps on uploads being received at once: per account, per client address and bytes per process (docs/security.md).
import { AppError } from '../http/errors';
import { ERROR_CODES, TASK_MESSAGES, UPLOADS_IN_FLIGHT } from '../../src/lib/product-rules';

export interface UploadGateLimits {
  perAccount: number;
  perClient: number;
  processBytes: number;
}

/** One upload's hold on the gate; release() frees whatever it holds and may be called more than once. */
export interface UploadPass {
  /** Counts the upload against an account once the account is known (a policy upload names it in its form). */
  claimAccount(accountId: string): void;
  release(): void;
}

export interface UploadGate {
  /** Lets an upload in, or throws 429 with Retry-After when its address or the process is at its cap. */
  enter(client: string, bytes: number): UploadPass;
  /** What is in flight now (metrics and tests). */
  inFlight(): { uploads: number; bytes: number };
}

function busy(message: string): AppError {
  return new AppError(429, ERROR_CODES.rateLimited, message, { 'Retry-After': String(UPLOADS_IN_FLIGHT.retryAfterS) });
}

export function createUploadGate(limits: UploadGateLimits): UploadGate {
  const perClient = new Map<string, number>();
  const perAccount = new Map<string, number>();
  let uploads = 0;
  let bytes = 0;

  const add = (counts: Map<string, number>, key: string, by: number) => {
    const next = (counts.get(key) ?? 0) + by;
    if (next <= 0) counts.delete(key);
    else counts.set(key, next);
  };

  return {
    enter(client, size) {
      if ((perClient.get(client) ?? 0) >= limits.perClient)
        throw busy(TASK_MESSAGES.uploadsBusyClient(limits.perClient));
      // One upload is always let in when none is running, whatever it announces: a cap below one body must not lock
      // uploads out.
      if (uploads > 0 && bytes + size > limits.processBytes) throw busy(TASK_MESSAGES.uploadsBusyServer);
      add(perClient, client, 1);
      uploads += 1;
      bytes += size;
      let account: string | null = null;
      let released = false;
      return {
        claimAccount(accountId) {
          if (released || account !== null) return;
          if ((perAccount.get(accountId) ?? 0) >= limits.perAccount)
            throw busy(TASK_MESSAGES.uploadsBusyAccount(limits.perAccount));
          add(perAccount, accountId, 1);
          account = accountId;
        },
        release() {
          if (released) return;
          released = true;
          add(perClient, client, -1);
          if (account !== null) add(perAccount, account, -1);
          uploads -= 1;
          bytes -= size;
        },
      };
    },
    inFlight: () => ({ uploads, bytes }),
  };
}
