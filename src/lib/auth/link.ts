// The one-time sign-in link of a code mail, opened on the root page: posts its token to /user/email/login
// (docs/security.md "Sign-in limits").
import { accountsApi } from '../api';
import { LOGIN_LINK } from '../product-rules';
import { attribution, completeLogin } from '../stores/login';

export type LinkOutcome = { kind: 'none' } | { kind: 'done'; redirect: string } | { kind: 'failed'; message: string };

/** Where the browser goes after the link signed it in: the playground, keeping the rest of the query. */
function afterLink(params: URLSearchParams): string {
  params.delete(LOGIN_LINK.queryParam);
  const rest = params.toString();
  return `/playground${rest ? `?${rest}` : ''}`;
}

/** Signs in with `?signin=<token>` when the address carries one; the token works once, so it is never retried. */
export async function handleSignInLink(search: string): Promise<LinkOutcome> {
  const params = new URLSearchParams(search);
  const token = params.get(LOGIN_LINK.queryParam);
  if (token === null) return { kind: 'none' };
  try {
    const result = await accountsApi.linkLogin(token, attribution());
    // Deferred: the root page navigates on at once, so the after-login steps run on the next page.
    await completeLogin(result, { deferred: true });
    return { kind: 'done', redirect: afterLink(params) };
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}
