// Request bodies of the account routes (SPEC.md §5, §7), validated with messages of the form "field: rule".
import { z } from 'zod';
import {
  ATTRIBUTION,
  CHANNEL,
  COMPANY,
  CREDIT_HISTORY,
  LOGIN,
  LOGIN_CODES,
  MESSAGES,
  OAUTH_STATE,
  isValidChannel,
  isValidCompany,
  isValidEmail,
  isValidLoginCode,
  isSafeText,
  UNSAFE_TEXT_MESSAGE,
} from '../../src/lib/product-rules';

/** A string field; says whether it was missing or of the wrong type. */
const str = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

const email = str()
  .trim()
  .toLowerCase()
  .refine((v) => isValidEmail(v), MESSAGES.invalidEmail);

const attribution = z
  .string()
  .max(ATTRIBUTION.maxLength, `must be at most ${ATTRIBUTION.maxLength} characters`)
  .optional();

export const sendCodeBody = z.object({
  email,
  type: z.literal(LOGIN.codeType, { error: `must be '${LOGIN.codeType}'` }),
});

/**
 * SPEC.md §7 fields, and optionally the attempt id POST /user/code answered (docs/security.md "Sign-in limits"):
 * without it the code is checked against the newest live code of the email, as SPEC.md's own call does.
 */
export const emailLoginBody = z.object({
  email,
  code: str()
    .trim()
    .refine((v) => isValidLoginCode(v), `must be ${LOGIN.codeDigits} digits`),
  attemptId: str().regex(LOGIN_CODES.secretPattern, 'must be the attemptId answered by /user/code').optional(),
  referer: attribution,
  refererUrl: attribution,
});

/** The same call made with the token of the one-time link in the code mail instead of email and code. */
export const linkLoginBody = z.object({
  linkToken: str().regex(LOGIN_CODES.secretPattern, 'must be the token of a sign-in link'),
  referer: attribution,
  refererUrl: attribution,
});

export const infoUpdateBody = z.object({
  company: z
    .string({ error: 'is required' })
    .refine((v) => isValidCompany(v), `must not be empty and at most ${COMPANY.maxLength} characters`)
    .refine((v) => isSafeText(v), UNSAFE_TEXT_MESSAGE),
  channel: z
    .string()
    .refine((v) => isValidChannel(v), `must be at most ${CHANNEL.maxLength} characters`)
    .refine((v) => isSafeText(v), UNSAFE_TEXT_MESSAGE)
    .optional(),
});

export const applyKeyBody = z.object({
  userId: str().min(1, 'is required').max(64, 'is too long'),
});

export const invitationBody = z.object({
  code: z
    .string({ error: (issue) => (issue.input === undefined ? MESSAGES.enterInvitationCode : 'must be a string') })
    .trim()
    .min(1, MESSAGES.enterInvitationCode)
    .max(64, 'is too long'),
});

export const historyBody = z.object({
  page: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(CREDIT_HISTORY.maxPageSize, `must be at most ${CREDIT_HISTORY.maxPageSize}`)
    .default(CREDIT_HISTORY.defaultPageSize),
});

export const oauthUrlBody = z.object({
  state: str().regex(OAUTH_STATE.pattern, "must be 'dreamapi.' followed by a random part"),
  codeChallenge: str().regex(OAUTH_STATE.challengePattern, 'must be an S256 PKCE challenge'),
});

export const oauthCallbackBody = z.object({
  code: str().min(1, 'is required').max(2048, 'is too long'),
  state: str().regex(OAUTH_STATE.pattern, "must be 'dreamapi.' followed by a random part"),
  codeVerifier: str().regex(OAUTH_STATE.verifierPattern, 'must be a PKCE code verifier'),
  referer: attribution,
  refererUrl: attribution,
});
