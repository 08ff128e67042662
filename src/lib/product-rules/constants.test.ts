// Pins every SPEC.md §9 constant (and the §3, §7, §8 names and codes) so a changed value fails loudly.

import { describe, expect, it } from 'vitest';
import {
  API_CODES,
  CHANNEL,
  COMPANY,
  COOKIES,
  COOKIE_NAMES,
  INVITATION,
  LOGIN,
  MODALS,
  OAUTH_STATE_PREFIX,
  REQUEST,
  STORAGE_KEYS,
  SUCCESS_STATUS_CODE,
  TRACKING,
  TRACKING_CODES,
  USER_ID_MASK_MIN_LENGTH,
  USER_ID_MASK_VISIBLE_CHARS,
} from './constants';

describe('§9 business constants', () => {
  it.each([
    ['request timeout is 10000 ms', REQUEST.timeoutMs, 10000],
    ['email login code has 4 digits', LOGIN.codeDigits, 4],
    ["email code request type is 'login' (§7)", LOGIN.codeType, 'login'],
    ['invitation gives 500 credits', INVITATION.credits, 500],
    ['suspension modal counts down 9 s', MODALS.suspensionCountdownS, 9],
    ['bind-email prompt interval is 24 h', MODALS.bindEmailIntervalMs, 86_400_000],
    ['from cookie lasts 1 day', COOKIES.fromDays, 1],
    ['user id cookie lasts 30 days', COOKIES.userIdDays, 30],
    ['user id is masked from 16 characters', USER_ID_MASK_MIN_LENGTH, 16],
    ['masked user id keeps 4 characters at each end', USER_ID_MASK_VISIBLE_CHARS, 4],
  ])('%s', (_rule, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('§9 tracking defaults', () => {
  it.each([
    ['default batch size is 20', 'batchSize', 20],
    ['default buffer interval is 20000 ms', 'bufferMs', 20000],
    ['immediate mode sends 1 per batch', 'immediateBatchSize', 1],
    ['default queue cap is 100', 'queueLimit', 100],
    ['seqId wraps after 10000', 'seqIdWrap', 10000],
    ['token/config cache lasts 1.8 h', 'cacheMaxAgeMs', 6_480_000],
    ['stop-check delay is 2000 ms', 'stopCheckDelayMs', 2000],
    ['performance sample rate is 0.2', 'perfSampleRate', 0.2],
    ['monitoring timeout is 60000 ms', 'monitorTimeoutMs', 60000],
    ['random queueId has at least 9 digits', 'queueIdMinDigits', 9],
    ['random queueId has at most 10 digits', 'queueIdMaxDigits', 10],
    ['webview id has 16 characters', 'webviewIdLength', 16],
    ['a failed send is retried once (§8)', 'sendRetries', 1],
    ['default tracking host port is 8443 (§7)', 'defaultPort', 8443],
  ] as const)('%s', (_rule, key, expected) => {
    expect(TRACKING[key]).toBe(expected);
  });

  it('cache age is exactly 1.8 hours in milliseconds', () => {
    expect(TRACKING.cacheMaxAgeMs).toBe(Math.round(1.8 * 60 * 60 * 1000));
    expect(Number.isInteger(TRACKING.cacheMaxAgeMs)).toBe(true);
  });
});

describe('§3 local storage keys', () => {
  it('lists exactly the eleven §3 keys', () => {
    expect(Object.values(STORAGE_KEYS)).toEqual([
      'userToken',
      'userKey',
      'loginType',
      'countryCode',
      'from',
      'refererUrl',
      'redirectUri',
      'hasRead',
      'userId',
      'bindEmailTime',
      'cookie-accpet',
    ]);
  });

  it("keeps the original misspelled cookie consent key 'cookie-accpet'", () => {
    expect(STORAGE_KEYS.cookieAccept).toBe('cookie-accpet');
  });
});

describe('§3 cookie names', () => {
  it.each([
    ['from cookie is named from', COOKIE_NAMES.from, 'from'],
    ['user id cookie is written as userid', COOKIE_NAMES.userId, 'userid'],
  ])('%s', (_rule, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('user id is read from cookies userid or x-token, in that order', () => {
    expect(COOKIE_NAMES.userIdAlt).toEqual(['userid', 'x-token']);
  });
});

describe('§8 codes and §2 OAuth state', () => {
  it.each([
    ['success status_code is THS12140000000', SUCCESS_STATUS_CODE, 'THS12140000000'],
    ['product API success code is 0', API_CODES.ok, 0],
    ['product API not-logged-in code is 40001', API_CODES.notLoggedIn, 40001],
    ['tracking success code is 0', TRACKING_CODES.ok, 0],
    ['tracking appKey error code is 40001', TRACKING_CODES.appKeyError, 40001],
    ['tracking token failure code is 40002', TRACKING_CODES.tokenFailure, 40002],
    ['OAuth state is dreamapi', OAUTH_STATE_PREFIX, 'dreamapi'],
  ])('%s', (_rule, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('§5 form limits', () => {
  it('channel limit is 500 and the counter shows /1000, as SPEC.md §5 writes both', () => {
    expect(CHANNEL.maxLength).toBe(500);
    expect(CHANNEL.counterMax).toBe(1000);
  });

  it('company name limit is 200', () => {
    expect(COMPANY.maxLength).toBe(200);
  });
});
