// Typed account calls of SPEC.md §7 (and our key-regenerate, history and OAuth-URL calls in the same style).
import { LOGIN, type OAuthProvider } from '../product-rules';
import { apiRequest } from './client';
import type {
  Attribution,
  CodeSent,
  LedgerPageWithBalance,
  LoginResult,
  OAuthUrl,
  PlaygroundKey,
  Redeemed,
  UserInfo,
} from './types';

export type { Attribution, LedgerEntry, LedgerPageWithBalance as LedgerPage, LoginResult, UserInfo } from './types';

export const accountsApi = {
  /** Mails a code and a one-time link; the attempt id answered goes back with the code (docs/security.md). */
  sendCode: (email: string) => apiRequest<CodeSent>('/user/code', { email, type: LOGIN.codeType }),
  emailLogin: (email: string, code: string, attemptId: string, attribution: Attribution) =>
    apiRequest<LoginResult>('/user/email/login', { email, code, attemptId, ...attribution }),
  /** The same call with the token of the mailed sign-in link instead of email and code. */
  linkLogin: (linkToken: string, attribution: Attribution) =>
    apiRequest<LoginResult>('/user/email/login', { linkToken, ...attribution }),
  info: () => apiRequest<UserInfo>('/user/info'),
  logout: () => apiRequest<null>('/user/exit/login'),
  updateInfo: (company: string, channel: string) => apiRequest<null>('/user/infoUpdate', { company, channel }),
  /** Remembers on the server that the information modal was offered, so no other browser offers it again. */
  infoAsked: () => apiRequest<null>('/user/infoAsked'),
  apiKey: (userId: string) => apiRequest<PlaygroundKey>('/apply/playground', { userId }),
  regenerateKey: (userId: string) => apiRequest<PlaygroundKey>('/apply/playground/regenerate', { userId }),
  redeem: (code: string) => apiRequest<Redeemed>('/user/invitation', { code }, { json: true }),
  history: (page: number, pageSize: number) =>
    apiRequest<LedgerPageWithBalance>('/user/credits/history', { page, pageSize }),
  oauthUrl: (provider: OAuthProvider, state: string, codeChallenge: string) =>
    apiRequest<OAuthUrl>(`/user/${provider}/login/url`, { state, codeChallenge }),
  oauthCallback: (provider: OAuthProvider, params: Record<string, string>) =>
    apiRequest<LoginResult>(`/user/${provider}/login/callback`, params),
};
