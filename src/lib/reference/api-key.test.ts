// The masked key of a code sample: as long as the placeholder it replaces, with the prefix and the key's last
// characters.
import { describe, expect, it } from 'vitest';
import { maskApiKey } from './api-key';
import { KEY_PLACEHOLDER } from './samples';

describe('maskApiKey', () => {
  it('keeps the placeholder length, the prefix and the last four characters, and hides the rest', () => {
    const key = 'sk-AbCdEfGh1234567890_-wxyz5678AbCdEfGh12345';
    const masked = maskApiKey(key);
    expect(masked).toHaveLength(KEY_PLACEHOLDER.length);
    expect(masked).toBe('sk-•••••2345');
    expect(masked).not.toContain(key.slice(3, -4));
  });
});
