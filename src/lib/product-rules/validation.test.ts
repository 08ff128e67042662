// Pins the SPEC.md §5 validation rules of accounts and free text with tables of accepted and rejected input; tracking
// rules are in tracking-rules.test.ts.

import { describe, expect, it } from 'vitest';
import {
  isMobileUserAgent,
  isSafeText,
  normalizeEmail,
  isValidChannel,
  isValidCodeDigit,
  isValidCompany,
  isValidEmail,
  isValidInvitationCode,
  isValidLoginCode,
  maskUserId,
} from './validation';

describe('§5 email shape: word characters, dots or hyphens, @, dotted domain', () => {
  it.each([
    'a@b.co',
    'user@example.com',
    'first.last@example.com',
    'first-last@example.com',
    'user_name@example.com',
    'USER123@Example.COM',
    'user@mail.example.co.uk',
    'user@my-domain.com',
    '.dot@example.com',
  ])('accepts %j', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    '',
    'plainaddress',
    '@example.com',
    'user@',
    'user@example',
    'user@@example.com',
    'user@example.',
    'user@.example.com',
    'user@example..com',
    'user name@example.com',
    'user+tag@example.com',
    ' user@example.com',
    'user@example.com ',
    'user@exa_mple.com@x.com',
    'üser@example.com',
    'user@example.com\n',
  ])('rejects %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it.each([undefined, null, 42, {}])('rejects non-string %j', (value) => {
    expect(isValidEmail(value)).toBe(false);
  });
});

describe('§5 login code digit box takes exactly 1 digit', () => {
  it.each(['0', '5', '9'])('accepts %j', (digit) => {
    expect(isValidCodeDigit(digit)).toBe(true);
  });

  it.each(['', '12', 'a', ' ', '٣', '-', undefined, 7])('rejects %j', (digit) => {
    expect(isValidCodeDigit(digit)).toBe(false);
  });
});

describe('§4/§9 login code is exactly 4 digits', () => {
  it.each(['0000', '1234', '9876'])('accepts %j', (code) => {
    expect(isValidLoginCode(code)).toBe(true);
  });

  it.each(['', '123', '12345', '12a4', ' 1234', '1234 ', '12 4', '١٢٣٤', undefined, 1234])('rejects %j', (code) => {
    expect(isValidLoginCode(code)).toBe(false);
  });
});

describe('§5 invitation code must not be empty', () => {
  it.each(['ABC123', 'x', ' padded '])('accepts %j', (code) => {
    expect(isValidInvitationCode(code)).toBe(true);
  });

  it.each(['', ' ', '\t\n', undefined, null, 123])('rejects %j', (code) => {
    expect(isValidInvitationCode(code)).toBe(false);
  });
});

describe('§5 channel text is at most 500 characters', () => {
  it.each([
    ['empty (the field is optional)', ''],
    ['short text', 'A friend told me'],
    ['exactly 500 characters', 'x'.repeat(500)],
  ])('accepts %s', (_case, channel) => {
    expect(isValidChannel(channel)).toBe(true);
  });

  it.each([
    ['501 characters', 'x'.repeat(501)],
    ['1000 characters (the old counter figure)', 'x'.repeat(1000)],
    ['a number', 42],
    ['undefined', undefined],
  ])('rejects %s', (_case, channel) => {
    expect(isValidChannel(channel)).toBe(false);
  });
});

describe('§3 company name is required and at most 200 characters', () => {
  it.each([
    ['a name', 'Acme Inc.'],
    ['one character', 'A'],
    ['exactly 200 characters', 'c'.repeat(200)],
  ])('accepts %s', (_case, company) => {
    expect(isValidCompany(company)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['201 characters', 'c'.repeat(201)],
    ['null', null],
    ['a number', 7],
  ])('rejects %s', (_case, company) => {
    expect(isValidCompany(company)).toBe(false);
  });
});

describe('§5 mobile is detected by user-agent keywords', () => {
  it.each([
    ['Android phone', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36'],
    [
      'iPhone',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1',
    ],
    ['iPad', 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15'],
    ['iPod', 'Mozilla/5.0 (iPod touch; CPU iPhone OS 12_0 like Mac OS X)'],
    ['Windows Phone', 'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950)'],
    ['BlackBerry', 'BlackBerry9700/5.0.0.351 Profile/MIDP-2.1'],
    ['Opera Mini', 'Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25'],
    ['a generic Mobile token', 'SomeBrowser/1.0 Mobile'],
  ])('%s is mobile', (_case, ua) => {
    expect(isMobileUserAgent(ua)).toBe(true);
  });

  it.each([
    ['Windows desktop', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36'],
    ['macOS desktop', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15'],
    ['Linux desktop', 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0'],
    ['empty', ''],
    ['missing', undefined],
    ['null', null],
  ])('%s is not mobile', (_case, ua) => {
    expect(isMobileUserAgent(ua)).toBe(false);
  });
});

describe('§9 user id display is masked from 16 characters', () => {
  it.each([
    ['length 0', '', ''],
    ['length 15 is shown as is', 'abcdefghijklmno', 'abcdefghijklmno'],
    ['length 16 is masked', 'abcdefghijklmnop', 'abcd****mnop'],
    ['length 20 is masked', 'abcdefghijklmnopqrst', 'abcd****qrst'],
  ])('%s', (_case, id, shown) => {
    expect(maskUserId(id)).toBe(shown);
  });

  it('a masked id hides everything but the first and last 4 characters', () => {
    const id = '1234567890ABCDEFGHIJ';
    const masked = maskUserId(id);
    expect(masked.startsWith('1234')).toBe(true);
    expect(masked.endsWith('GHIJ')).toBe(true);
    expect(masked).not.toContain('567890ABCDEF');
  });
});

describe('free text: no control or bidirectional-override characters', () => {
  it.each(['Acme Ltd', 'Café Müller GmbH', '株式会社テスト', 'שלום עולם', 'مرحبا', 'emoji 👩‍💻 team', 'a & b <c>', ''])(
    'accepts %j on one line',
    (text) => {
      expect(isSafeText(text)).toBe(true);
    },
  );

  it.each([
    ['NUL', 'Acme\u0000'],
    ['escape (terminal sequences)', '\u001b[31mred'],
    ['tab', 'Acme\tLtd'],
    ['line feed', 'Acme\nLtd'],
    ['carriage return', 'Acme\rLtd'],
    ['DEL', 'Acme\u007f'],
    ['a C1 control', 'Acme\u0085'],
    ['a line separator', 'Acme\u2028Ltd'],
    ['right-to-left override', 'invoice\u202Efdp.exe'],
    ['left-to-right embedding', '\u202AAcme'],
    ['pop directional formatting', 'Acme\u202C'],
    ['a right-to-left isolate', '\u2067Acme\u2069'],
    ['first strong isolate', '\u2068Acme'],
  ])('refuses %s on one line', (_name, text) => {
    expect(isSafeText(text)).toBe(false);
  });

  it('lets a multi-line text hold tabs and line breaks, but not the other controls or overrides', () => {
    expect(isSafeText('Hello,\r\n\tthe invoice is wrong.\nThanks', { multiLine: true })).toBe(true);
    expect(isSafeText('Hello\u0000', { multiLine: true })).toBe(false);
    expect(isSafeText('Hello \u202Egnorw', { multiLine: true })).toBe(false);
    expect(isSafeText('bell\u0007', { multiLine: true })).toBe(false);
  });
});

describe('email normalisation', () => {
  it('trims and lower-cases, as sign-in stores addresses', () => {
    expect(normalizeEmail('  Foo.Bar@Example.COM ')).toBe('foo.bar@example.com');
    expect(normalizeEmail('foo@example.com')).toBe('foo@example.com');
  });
});
