// The server secret (SECRET_KEY, or one generated on first start and kept in DATA_DIR) and the keys derived from it.
import { hkdfSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../private-files';
import { randomToken } from './crypto';

export interface ServerKeys {
  /** AES-256 key for API keys at rest. */
  encryption: Buffer;
  /** HMAC key for login codes. */
  hashing: Buffer;
  /** HMAC key of the tracking collector's tokens, signs and batch keys (unless TRACKING_SECRET is set). */
  tracking: Buffer;
}

export const SECRET_FILE = 'secret.key';

/**
 * Reads or creates DATA_DIR/secret.key. 'wx' makes creation atomic, so two processes starting together
 * end up with the same secret: the loser of the race reads the winner's file.
 */
function storedSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makePrivateDir(dataDir);
  try {
    writeFileSync(file, randomToken(48) + '\n', { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}

function derive(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'dreamapi-accounts', purpose, 32));
}

/**
 * Resolved on first use rather than at start-up, so app instances that never touch accounts (other areas'
 * tests) never write a secret file.
 */
export function lazyServerKeys(config: Pick<Config, 'secretKey' | 'dataDir'>): () => ServerKeys {
  let keys: ServerKeys | undefined;
  return () => {
    if (!keys) {
      const secret = config.secretKey ?? storedSecret(config.dataDir);
      keys = {
        encryption: derive(secret, 'api-key-encryption'),
        hashing: derive(secret, 'login-code-hmac'),
        tracking: derive(secret, 'tracking-token-hmac'),
      };
    }
    return keys;
  };
}
