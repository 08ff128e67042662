// Public surface of the accounts area: auth middleware for other areas, and the building blocks the CLI uses.
export { accountSuspended, assertNotSuspended, authenticate, requireApiKey, requireUser, notLoggedIn } from './auth';
export type { AuthEnv, AuthOptions, AuthVariables } from './auth';
export { createInvitation, redeemInvitation } from './invitations';
export { findUser } from './users';
export { createMailer } from './mailer';
export type { Mailer } from './mailer';
export { lazyServerKeys } from './secret';
export type { ServerKeys } from './secret';
