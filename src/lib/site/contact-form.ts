// The contact form's checks before sending: every field's problem at once, in the words the server uses
// (src/lib/product-rules).
import { CONTACT, CONTACT_MESSAGES, MESSAGES, isValidEmail } from '../product-rules';

export const CONTACT_FIELDS = ['name', 'email', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** Each field's problem, or none; the same rules as POST /contact/message, so a form that passes is accepted. */
export function contactProblems(data: Partial<Record<string, unknown>>): Partial<Record<ContactField, string>> {
  const text = (key: ContactField) => (typeof data[key] === 'string' ? data[key].trim() : '');
  const problems: Partial<Record<ContactField, string>> = {};
  if (!text('name')) problems.name = CONTACT_MESSAGES.nameRequired;
  if (!isValidEmail(text('email'))) problems.email = MESSAGES.invalidEmail;
  const length = text('message').length;
  if (length < CONTACT.messageMinLength) problems.message = CONTACT_MESSAGES.messageTooShort;
  else if (length > CONTACT.messageMaxLength) problems.message = CONTACT_MESSAGES.messageTooLong;
  return problems;
}

/** A message as a sentence: its first letter in capitals ("must not contain …" → "Must not contain …"). */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The server's refusal ("email: Invalid email address") split into the field it names and its message as a sentence.
 */
export function serverProblem(message: string): { field?: ContactField; message: string } {
  const match = /^(\w+): (.+)$/s.exec(message);
  const field = CONTACT_FIELDS.find((f) => f === match?.[1]);
  return field && match ? { field, message: sentence(match[2]!) } : { message: sentence(message) };
}
