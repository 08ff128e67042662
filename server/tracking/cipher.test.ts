// The collector opens only base64 exactly as encoders write it, then whole, correctly padded AES-CBC ciphertext.
import { describe, expect, it } from 'vitest';
import { sealEntries } from '../../src/lib/tracking/cipher';
import { openBatch } from './cipher';

const AK = 'ab'.repeat(32);

describe('openBatch', () => {
  it('opens what the browser cipher sealed', () => {
    const entries = [{ entryId: 'e-1', logmap: { text: 'héllo' } }];
    expect(JSON.parse(openBatch(sealEntries(entries as never, AK), AK))).toEqual(entries);
  });

  it.each([
    ['other characters', 'not*base64!'],
    ['a line break', `${sealEntries([], AK)}\n`],
    ['a space inside', `${sealEntries([], AK).slice(0, 8)} ${sealEntries([], AK).slice(8)}`],
    ['the URL-safe alphabet', 'QUJD-_-_'],
    ['padding inside', 'QUJD====QUJD'],
    ['nothing', ''],
  ])('refuses %s as not base64', (_, text) => {
    expect(() => openBatch(text, AK)).toThrow('msgEncrypt: is not base64');
  });

  it('refuses base64 that is not whole blocks, or is not sealed with this key', () => {
    expect(() => openBatch('QUJD', AK)).toThrow('is truncated');
    expect(() => openBatch(sealEntries([], 'cd'.repeat(32)), AK)).toThrow('does not decrypt');
  });
});
