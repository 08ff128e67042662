// Test-only: the upload field as a screen uses it, for DropZone's tests: a 1×1 PNG to upload, and a field that keeps
// the chosen media and records each change.
import { useState } from 'react';
import type { MediaKind } from '../../lib/product-rules';
import type { UploadedMedia } from './api';
import DropZone from './DropZone';

/** A 1×1 PNG. */
export const PIXEL = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

/** A screen's use of the field: it keeps the chosen media and pushes each change onto `chosen`. */
export function ChosenField({
  kinds,
  label = 'Picture',
  chosen,
}: {
  kinds: readonly MediaKind[];
  label?: string;
  chosen: Array<UploadedMedia | null>;
}) {
  const [value, setValue] = useState<UploadedMedia | null>(null);
  return (
    <DropZone
      label={label}
      kinds={kinds}
      value={value}
      onChange={(media) => {
        chosen.push(media);
        setValue(media);
      }}
      screen="test"
    />
  );
}
