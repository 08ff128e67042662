// Test-only: one tracking entry as the browser sends it, and one stored tracking event row (the same fields everywhere
// a test writes tracking_events directly).
import { TRACKING_ACTIONS } from '../../src/lib/product-rules';
import type { TrackingEventsTable } from '../db';

/** A valid entry: every §3 field, a click on the home page's button. */
export const TRACK_ENTRY = {
  entryId: 'e-1',
  coldStartId: 'cs',
  seqId: 1,
  uid: '',
  time: 1_700_000_000_000,
  oid: 'web_home_btn',
  action: TRACKING_ACTIONS.click,
  foid: '',
  ffid: 'web_home_btn',
  logmap: { n: 1 },
};

/** An event of entry `id` at `time` (received then too, unless `o` says otherwise). */
export function trackingEventRow(id: string, time: number, o: Partial<TrackingEventsTable> = {}): TrackingEventsTable {
  return {
    entry_id: id,
    app_key: 'k',
    produce_id: 'p',
    device_id: 'd',
    cold_start_id: 'c',
    seq_id: 1,
    uid: '',
    time,
    oid: 'o',
    action: 1,
    foid: '',
    ffid: '',
    logmap: '{}',
    queue_id: 'q',
    received_at: time,
    ...o,
  };
}
