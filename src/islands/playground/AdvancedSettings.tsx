// "Advanced settings" behind a disclosure: only those the engine serving the feature honours (the features answer's
// options).
import { lazy, Suspense, useState } from 'react';
import type { AdvancedSettingsProps } from './AdvancedSettingsForm';
import own from './disclosures.module.css';

// The options arrive with the features answer, after the screen is up, so the form's code can come then too.
const AdvancedSettingsForm = lazy(() => import('./AdvancedSettingsForm'));

/**
 * The closed disclosure while the features answer is on its way (and in the pre-rendered HTML): it holds the place
 * the settings take, so the cost and the submit below do not move when they come (CLS 0).
 */
function SettingsPending({ onToggle }: { onToggle: (open: boolean) => void }) {
  return (
    <details
      className={own.advanced}
      data-testid="advanced-settings-pending"
      onToggle={(e) => onToggle(e.currentTarget.open)}
    >
      <summary className="field-label">Advanced settings</summary>
      <p className={own.body}>The settings this product&apos;s engine honours appear here once the server answers.</p>
    </details>
  );
}

/**
 * `known`: whether the features answer has come; until then the disclosure's place is held. It is false in the
 * pre-rendered HTML and the hydrating render (the answer is read after mount), so both show the same.
 */
export default function AdvancedSettings({ known, ...props }: AdvancedSettingsProps & { known: boolean }) {
  // Opened while the answer was on its way: the settings open in its place.
  const [opened, setOpened] = useState(false);
  const pending = <SettingsPending onToggle={setOpened} />;
  if (!known) return pending;
  // An engine that honours no setting shows none (a rare engine: every default engine honours some).
  if (props.options.length === 0) return null;
  return (
    <Suspense fallback={pending}>
      <AdvancedSettingsForm {...props} initiallyOpen={opened} />
    </Suspense>
  );
}
