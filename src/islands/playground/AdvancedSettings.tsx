// "Advanced settings" behind a disclosure: only those the engine serving the feature honours (the features answer's options).
import { lazy, Suspense } from 'react';
import { useRenderedInBrowser } from '../shared/useRenderedInBrowser';
import type { AdvancedSettingsProps } from './AdvancedSettingsForm';

// The options arrive with the features answer, after the screen is up, so the form's code can come then too.
const AdvancedSettingsForm = lazy(() => import('./AdvancedSettingsForm'));

export default function AdvancedSettings(props: AdvancedSettingsProps) {
  const inBrowser = useRenderedInBrowser();
  if (!inBrowser || props.options.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <AdvancedSettingsForm {...props} />
    </Suspense>
  );
}
