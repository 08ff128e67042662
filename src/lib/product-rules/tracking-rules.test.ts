// Pins the SPEC.md §5 tracking input rules (appKey, event ids and prefixes, actions, domain, logmap) with tables of
// accepted and rejected input.

import { describe, expect, it } from 'vitest';
import {
  TRACKING_ACTIONS,
  TRACKING_ACTION_NAMES,
  actionCode,
  initOptionsFault,
  isValidAction,
  isValidAppKey,
  isValidDomain,
  isValidEventId,
  isValidEventPrefix,
  isValidLogmap,
} from './tracking-rules';

describe('§5 tracking appKey is a non-empty string', () => {
  it.each(['k', 'app-key-123'])('accepts %j', (key) => {
    expect(isValidAppKey(key)).toBe(true);
  });

  it.each(['', undefined, null, 0, 123, {}, ['key']])('rejects %j', (key) => {
    expect(isValidAppKey(key)).toBe(false);
  });
});

describe('§5 event id: 3 or 5 underscore-separated segments, or 2 when a prefix is set', () => {
  it.each([
    ['3 segments', 'home_banner_click'],
    ['5 segments', 'app_home_banner_item_click'],
    ['digits in segments', 'p1_m2_e3'],
  ])('without prefix accepts %s (%j)', (_case, id) => {
    expect(isValidEventId(id)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['1 segment', 'click'],
    ['2 segments', 'banner_click'],
    ['4 segments', 'a_b_c_d'],
    ['6 segments', 'a_b_c_d_e_f'],
    ['an empty segment', 'a__c'],
    ['a leading underscore', '_a_b_c'],
    ['a trailing underscore', 'a_b_c_'],
    ['only underscores', '__'],
    ['a number', 123],
    ['undefined', undefined],
  ])('without prefix rejects %s', (_case, id) => {
    expect(isValidEventId(id)).toBe(false);
  });

  it.each([['2 segments', 'banner_click']])('with a prefix accepts %s (%j)', (_case, id) => {
    expect(isValidEventId(id, 'app_home_page')).toBe(true);
  });

  it.each([
    ['1 segment', 'click'],
    ['3 segments', 'home_banner_click'],
    ['5 segments', 'app_home_banner_item_click'],
    ['an empty segment', 'banner_'],
    ['empty', ''],
  ])('with a prefix rejects %s', (_case, id) => {
    expect(isValidEventId(id, 'app_home_page')).toBe(false);
  });

  it('an empty prefix counts as no prefix', () => {
    expect(isValidEventId('home_banner_click', '')).toBe(true);
    expect(isValidEventId('banner_click', '')).toBe(false);
  });
});

describe('§5 event prefix is empty or 3 segments', () => {
  it.each([
    ['not set', undefined],
    ['empty', ''],
    ['3 segments', 'app_home_page'],
  ])('accepts %s', (_case, prefix) => {
    expect(isValidEventPrefix(prefix)).toBe(true);
  });

  it.each([
    ['1 segment', 'app'],
    ['2 segments', 'app_home'],
    ['4 segments', 'a_b_c_d'],
    ['5 segments', 'a_b_c_d_e'],
    ['an empty segment', 'app__page'],
    ['a number', 3],
    ['null', null],
  ])('rejects %s', (_case, prefix) => {
    expect(isValidEventPrefix(prefix)).toBe(false);
  });
});

describe('§5 tracking actions and their §3 numeric codes', () => {
  it.each([
    ['click', 1],
    ['slide', 2],
    ['show', 3],
    ['hover', 4],
    ['stay', 5],
    ['dis', 6],
    ['pull', 7],
    ['dclick', 8],
    ['start', 9],
    ['press', 10],
  ])('action %s is valid and has code %i', (name, code) => {
    expect(isValidAction(name)).toBe(true);
    expect(actionCode(name)).toBe(code);
    expect(TRACKING_ACTIONS[name as keyof typeof TRACKING_ACTIONS]).toBe(code);
  });

  it('lists exactly the ten actions in §5 order', () => {
    expect(TRACKING_ACTION_NAMES).toEqual([
      'click',
      'slide',
      'show',
      'hover',
      'stay',
      'dis',
      'pull',
      'dclick',
      'start',
      'press',
    ]);
  });

  it('codes are 1 to 10 in §5 order, so each is distinct', () => {
    expect(Object.values(TRACKING_ACTIONS)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it.each([
    '',
    'Click',
    'CLICK',
    'tap',
    'scroll',
    'dblclick',
    'toString',
    '__proto__',
    'constructor',
    'hasOwnProperty',
  ])('unknown action %j is rejected and has no code', (name) => {
    expect(isValidAction(name)).toBe(false);
    expect(actionCode(name)).toBeUndefined();
  });

  it.each([1, undefined, null, {}])('non-string action %j is rejected', (value) => {
    expect(isValidAction(value)).toBe(false);
  });
});

describe('§5 domain must be a string if present', () => {
  it.each([
    ['absent', undefined],
    ['empty string', ''],
    ['a host', 'track.example.com'],
  ])('accepts %s', (_case, domain) => {
    expect(isValidDomain(domain)).toBe(true);
  });

  it.each([
    ['null', null],
    ['a number', 8443],
    ['an object', { host: 'x' }],
    ['a boolean', true],
  ])('rejects %s', (_case, domain) => {
    expect(isValidDomain(domain)).toBe(false);
  });
});

describe('§5 logmap must be an object', () => {
  it.each([
    ['an empty object', {}],
    ['key/value extras', { page: 'home', index: 3 }],
    ['a null-prototype object', Object.create(null) as object],
  ])('accepts %s', (_case, logmap) => {
    expect(isValidLogmap(logmap)).toBe(true);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an array', ['a']],
    ['an empty array', []],
    ['a string', 'page=home'],
    ['a number', 1],
    ['a function', () => ({})],
    ['a Date', new Date(0)],
    ['a Map', new Map([['a', 1]])],
  ])('rejects %s', (_case, logmap) => {
    expect(isValidLogmap(logmap)).toBe(false);
  });
});

describe('§5 init options: the first rule they break, named by its warning', () => {
  it.each([
    ['an appKey only', { appKey: 'k' }],
    ['every option', { appKey: 'k', domain: 'track.example.com', logPrefix: 'app_home_page', baseLogmap: { a: 1 } }],
  ])('accepts %s', (_case, options) => {
    expect(initOptionsFault(options)).toBeUndefined();
  });

  it.each([
    ['no options', undefined, 'appKey'],
    ['an empty appKey', { appKey: '' }, 'appKey'],
    ['a number domain', { appKey: 'k', domain: 8443 }, 'domain'],
    ['a 2-segment prefix', { appKey: 'k', logPrefix: 'app_home' }, 'eventPrefix'],
    ['an array baseLogmap', { appKey: 'k', baseLogmap: ['a'] }, 'logmap'],
    ['a bad appKey before a bad domain', { appKey: 1, domain: 2 }, 'appKey'],
  ])('rejects %s', (_case, options, fault) => {
    expect(initOptionsFault(options)).toBe(fault);
  });
});
