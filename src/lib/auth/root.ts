// What the root page does (SPEC.md §2, §4): finish a mailed sign-in link or an OAuth callback first, otherwise go to
// /playground keeping the query.
import { MESSAGES } from '../product-rules';
import { handleSignInLink } from './link';
import { handleOAuthCallback } from './oauth';

export async function handleRootVisit(status: HTMLElement | null): Promise<void> {
  const link = await handleSignInLink(location.search);
  const outcome = link.kind === 'none' ? await handleOAuthCallback(location.search) : link;
  if (outcome.kind === 'done') {
    location.replace(outcome.redirect);
    return;
  }
  if (outcome.kind === 'failed') {
    if (status) {
      status.hidden = false;
      status.querySelector('[data-message]')!.textContent = `${MESSAGES.loginFailed}: ${outcome.message}`;
    }
    // Drop the code and state (or the link's token) from the address bar so a reload does not retry them.
    history.replaceState(null, '', '/');
    return;
  }
  location.replace(`/playground${location.search}${location.hash}`);
}
