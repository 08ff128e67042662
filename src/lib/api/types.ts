// The shapes of account and task answers on the wire, for the server that sends them and the site that reads them:
// each the type of its zod schema in src/lib/api-contract (type-only imports, so no page loads zod for them).
import type { z } from 'zod';
import type * as A from '../api-contract/accounts';
import type * as T from '../api-contract/task-views';
import type { OfferAnswer } from '../api-contract/offer';

export type Attribution = z.infer<typeof A.attribution>;
export type UserInfo = z.infer<typeof A.userInfo>;
export type LoginResult = z.infer<typeof A.loginResult>;
export type LedgerEntry = z.infer<typeof A.ledgerEntry>;
export type LedgerTask = z.infer<typeof A.ledgerTask>;
export type LedgerPage = z.infer<typeof A.ledgerPage>;
export type LedgerPageWithBalance = z.infer<typeof A.ledgerPageWithBalance>;
export type ApiKeyView = z.infer<typeof A.apiKeyView>;
export type ApiKeyList = z.infer<typeof A.apiKeyList>;
export type CreatedApiKey = z.infer<typeof A.createdApiKey>;
export type ApiRequestEntry = z.infer<typeof A.apiRequestEntry>;
export type ApiRequestPage = z.infer<typeof A.apiRequestPage>;
export type UsageReport = z.infer<typeof A.usageReport>;
export type CodeSent = z.infer<typeof A.codeSent>;
export type PlaygroundKey = z.infer<typeof A.playgroundKey>;
export type Redeemed = z.infer<typeof A.redeemed>;
export type OAuthUrl = z.infer<typeof A.oauthUrl>;
export type CheckoutSession = z.infer<typeof A.checkoutSession>;

export type TaskOutputView = z.infer<typeof T.taskOutputView>;
export type TaskView = z.infer<typeof T.taskView>;
export type TaskPage = z.infer<typeof T.taskPage>;
export type MediaInfo = z.infer<typeof T.mediaInfo>;
export type SampleModel = z.infer<typeof T.sampleModel>;
export type SampleModelList = z.infer<typeof T.sampleModelList>;
export type ShareLinkView = z.infer<typeof T.shareLinkView>;
export type ShareLinkList = z.infer<typeof T.shareLinkList>;
export type SharedResult = z.infer<typeof T.sharedResult>;

/**
 * GET /api-playground/task/v1/features (public): each feature, payments and sign-in methods; one zod schema each
 * (src/lib/api-contract/offer.ts).
 */
export type { FeatureState, OfferAnswer, PaymentsOffer, SignInOffer } from '../api-contract/offer';
/** The same answer as the playground's feature list reads it. */
export type FeatureList = Pick<OfferAnswer, 'list'>;
