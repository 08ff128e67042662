// Test-only: one stored tracking event row, the same fields everywhere a test writes tracking_events directly.
import type { TrackingEventsTable } from '../db';

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
