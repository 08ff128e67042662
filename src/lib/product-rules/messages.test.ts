// Pins the SPEC.md §8 message strings exactly and checks the Chinese tracking warnings.

import { describe, expect, it } from 'vitest';
import { MESSAGES, TRACKING_WARNINGS } from './messages';
import { TRACKING_ACTION_NAMES } from './validation';

describe('§8 message catalogue', () => {
  it.each([
    ['networkError', 'Network error，Please try again later'],
    ['notLoggedIn', 'User Not Login'],
    ['failed', 'Failed'],
    ['sentFailed', 'Sent Failed'],
    ['loginFailed', 'Login Failed'],
    ['submitFailed', 'submit Failed'],
    ['sentSuccessfully', 'Sent Successfully'],
    ['successfully', 'Successfully'],
    ['redeemSuccessfully', 'Redeem Successfully'],
    ['submitSuccessfully', 'submit Successfully'],
    ['copySuccessfully', 'Copy Successfully'],
    ['invalidEmail', 'Invalid email address'],
    ['enterInvitationCode', 'Please enter invitation code'],
  ] as const)('MESSAGES.%s is exactly %j', (key, text) => {
    expect(MESSAGES[key]).toBe(text);
  });

  it('holds exactly the thirteen §5/§8 messages', () => {
    expect(Object.keys(MESSAGES)).toHaveLength(13);
  });

  it('the timeout message uses a full-width comma (U+FF0C)', () => {
    expect(MESSAGES.networkError).toContain('\uFF0C');
    expect(MESSAGES.networkError).not.toContain(',');
  });
});

describe('§8 tracking warnings are printed in Chinese', () => {
  const HAN = /\p{Script=Han}/u;

  it.each([
    ['appKey', 'appKey'],
    ['eventId', '事件 ID'],
    ['eventPrefix', '前缀'],
    ['action', '事件行为'],
    ['domain', 'domain'],
    ['logmap', 'logmap'],
  ] as const)('warning for %s is Chinese and names the field', (key, field) => {
    const warning = TRACKING_WARNINGS[key];
    expect(warning).toMatch(HAN);
    expect(warning).toContain(field);
  });

  it.each([
    ['appKey', 'appKey 必须是非空字符串'],
    ['eventId', '事件 ID 必须是非空字符串，由下划线分隔为 3 段或 5 段（设置前缀时为 2 段），该事件已丢弃'],
    ['eventPrefix', '事件 ID 前缀必须为空，或由下划线分隔为 3 段'],
    ['action', '事件行为必须是 click、slide、show、hover、stay、dis、pull、dclick、start、press 之一，该事件已丢弃'],
    ['domain', 'domain 如果传入，必须是字符串，该事件已丢弃'],
    ['logmap', 'logmap 必须是对象（不能是 null 或数组），该事件已丢弃'],
  ] as const)('TRACKING_WARNINGS.%s is exactly %j', (key, text) => {
    expect(TRACKING_WARNINGS[key]).toBe(text);
  });

  it('the action warning lists exactly the allowed actions, in §5 order', () => {
    const listed = TRACKING_WARNINGS.action.match(/[a-z]+/g);
    expect(listed).toEqual([...TRACKING_ACTION_NAMES]);
  });
});
