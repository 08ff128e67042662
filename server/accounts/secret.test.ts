// The server secret: SECRET_KEY when set; otherwise generated once into DATA_DIR and reused on the next start.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decrypt, encrypt } from './crypto';
import { lazyServerKeys, SECRET_FILE } from './secret';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('lazyServerKeys', () => {
  it('generates a secret file on first use only and derives the same keys on the next start', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'secret-')), 'data');
    dirs.push(path.dirname(dataDir));
    const first = lazyServerKeys({ secretKey: null, dataDir });
    expect(existsSync(path.join(dataDir, SECRET_FILE))).toBe(false);
    const sealed = encrypt(first().encryption, 'sk-abc');
    expect(readFileSync(path.join(dataDir, SECRET_FILE), 'utf8').trim().length).toBeGreaterThanOrEqual(64);
    const restarted = lazyServerKeys({ secretKey: null, dataDir });
    expect(decrypt(restarted().encryption, sealed)).toBe('sk-abc');
  });

  it('uses SECRET_KEY when set, and another secret cannot decrypt', () => {
    const a = lazyServerKeys({ secretKey: 'a'.repeat(40), dataDir: '/nonexistent' });
    const b = lazyServerKeys({ secretKey: 'b'.repeat(40), dataDir: '/nonexistent' });
    const sealed = encrypt(a().encryption, 'sk-abc');
    expect(decrypt(a().encryption, sealed)).toBe('sk-abc');
    expect(() => decrypt(b().encryption, sealed)).toThrow();
  });
});
