// The contact form names every field's problem at once, in sentence case, and places a server refusal on its field.
import { describe, expect, it } from 'vitest';
import { CONTACT, CONTACT_MESSAGES, MESSAGES } from '../product-rules';
import { contactProblems, serverProblem } from './contact-form';

describe('contactProblems', () => {
  it('an empty form gets a problem on each of its three fields at once', () => {
    expect(contactProblems({ name: ' ', email: '', message: '' })).toEqual({
      name: CONTACT_MESSAGES.nameRequired,
      email: MESSAGES.invalidEmail,
      message: CONTACT_MESSAGES.messageTooShort,
    });
  });

  it('a good form has none; a long message is refused with the limit', () => {
    const good = { name: 'Ada', email: 'ada@example.com', message: 'We would like volume pricing.' };
    expect(contactProblems(good)).toEqual({});
    expect(contactProblems({ ...good, message: 'x'.repeat(CONTACT.messageMaxLength + 1) })).toEqual({
      message: CONTACT_MESSAGES.messageTooLong,
    });
  });

  it('every message starts with a capital letter', () => {
    for (const m of Object.values(contactProblems({}))) expect(m).toMatch(/^[A-Z]/);
  });
});

describe('serverProblem', () => {
  it('places "field: message" on its field, as a sentence', () => {
    expect(serverProblem('name: must not contain control or bidirectional-override characters')).toEqual({
      field: 'name',
      message: 'Must not contain control or bidirectional-override characters',
    });
    expect(serverProblem('email: Invalid email address')).toEqual({ field: 'email', message: 'Invalid email address' });
  });

  it('a message about no field stays general', () => {
    expect(serverProblem(CONTACT_MESSAGES.tooMany)).toEqual({ message: CONTACT_MESSAGES.tooMany });
  });
});
