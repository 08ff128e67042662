// The shapes of account answers on the wire, defined once for the server that sends them and the site that reads them.

/** SPEC.md §3 "User info" plus token, isOld and countryCode. */
export interface UserInfo {
  userId: string;
  userEmail: string;
  userName: string;
  userPoints: number;
  company: string;
  channel: string;
  /** SPEC.md §3 "valid (suspension flag)": 1 when suspended, so the client shows the §4 suspension modal. */
  valid: 0 | 1;
  token: string;
  /** True when the user had signed in before the current session. */
  isOld: boolean;
  countryCode: string;
}

export interface LoginResult {
  userId: string;
  token: string;
}

/** One credits ledger row as the Billing tab shows it. */
export interface LedgerEntry {
  id: number;
  delta: number;
  /** The running balance right after this change. */
  balanceAfter: number;
  reason: string;
  reference: string | null;
  createdAt: number;
}

export interface LedgerPage {
  list: LedgerEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/** POST /user/credits/history answers a page plus the current balance. */
export interface LedgerPageWithBalance extends LedgerPage {
  balance: number;
}
