// The dashboard (SPEC.md §2 /dashboard?type=…): overview with usage, API keys, request log with webhooks and export,
// billing.
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { openModal } from '../../lib/stores/modals';
import { $user } from '../../lib/stores/signed-in';
import { useHydratedStore } from '../shared/useHydratedStore';
import OverviewTab from './OverviewTab';
import styles from './Dashboard.module.css';

// The overview is the first tab people see; the others load when opened (or linked to): the first load does not carry
// them.
const KeyTab = lazy(() => import('./KeyTab'));
const RequestsTab = lazy(() => import('./RequestsTab'));
const BillingTab = lazy(() => import('./BillingTab'));
const WebhookLog = lazy(() => import('./WebhookLog'));
const UsageExport = lazy(() => import('./UsageExport'));
const loadingTab = <p className="muted">Loading…</p>;

const TABS = [
  { type: 'dashboard', label: 'Overview' },
  { type: 'key', label: 'API keys' },
  { type: 'requests', label: 'Requests' },
  { type: 'billing', label: 'Billing' },
] as const;
type TabType = (typeof TABS)[number]['type'];

const TAB_EVENT = 'dashboard-tab';

function subscribe(onChange: () => void) {
  addEventListener('popstate', onChange);
  addEventListener(TAB_EVENT, onChange);
  return () => {
    removeEventListener('popstate', onChange);
    removeEventListener(TAB_EVENT, onChange);
  };
}

function tabFromUrl(): TabType {
  const type = new URLSearchParams(location.search).get('type');
  return TABS.find((t) => t.type === type)?.type ?? 'dashboard';
}

export default function Dashboard() {
  // Hydrates as the pre-rendered HTML (session unknown, "Loading your account…") even when the session loaded first.
  const user = useHydratedStore($user, undefined);
  // The tab lives in the URL (?type=…); the pre-rendered HTML shows the overview until hydration reads it.
  const tab = useSyncExternalStore(subscribe, tabFromUrl, () => 'dashboard' as TabType);

  // A guest gets the login modal, since every tab shows one account's data; undefined means the session is still
  // loading.
  useEffect(() => {
    if (user === null) openModal('login');
  }, [user]);

  // The tab bar scrolls sideways when it is wider than the screen: the chosen tab (say ?type=billing) is kept in view.
  const tabBar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = tabBar.current;
    const chosen = bar?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!bar || !chosen || bar.scrollWidth <= bar.clientWidth) return;
    chosen.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tab]);

  const choose = (type: TabType) => {
    history.pushState(null, '', `/dashboard?type=${type}`);
    dispatchEvent(new Event(TAB_EVENT));
  };

  return (
    <div className={styles.root}>
      <div ref={tabBar} className={styles.tabs} role="tablist" aria-label="Dashboard sections">
        {TABS.map((t) => (
          <button
            key={t.type}
            type="button"
            role="tab"
            aria-selected={tab === t.type}
            className={styles.tab}
            onClick={() => choose(t.type)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" className={styles.panel}>
        {user === undefined && <p className="muted">Loading your account…</p>}
        {user === null && (
          <div className="card">
            <p>Log in to see your credits, your API key and your billing history.</p>
            <button type="button" className="button" onClick={() => openModal('login')}>
              Log In
            </button>
          </div>
        )}
        {user && tab === 'dashboard' && <OverviewTab user={user} />}
        {user && tab !== 'dashboard' && (
          <Suspense fallback={loadingTab}>
            {tab === 'key' && <KeyTab userId={user.userId} />}
            {tab === 'requests' && (
              <>
                <RequestsTab />
                <WebhookLog />
                <UsageExport />
              </>
            )}
            {tab === 'billing' && <BillingTab />}
          </Suspense>
        )}
      </div>
    </div>
  );
}
