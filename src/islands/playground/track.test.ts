// Playground actions reach the site tracker with SPEC.md §5 event ids (three segments, no prefix) that the tracker
// accepts.
import { afterEach, describe, expect, it } from 'vitest';
import { isValidEventId } from '../../lib/product-rules';
import type { TrackEvent } from '../../lib/tracking';
import { trackAction } from './track';

let reported: TrackEvent[];

afterEach(() => {
  delete window.dreamTracker;
});

/** Stands in for the tracker BaseLayout starts, keeping what it is given. */
function listen() {
  reported = [];
  window.dreamTracker = { report: (e: TrackEvent) => void reported.push(e) } as unknown as NonNullable<
    typeof window.dreamTracker
  >;
}

describe('trackAction', () => {
  it('reports playground_<screen>_<what> with the action and logmap', () => {
    listen();
    trackAction('speech', 'submit', 'click', { voice: 'en-us-female-1' });
    trackAction('speech', 'succeeded', 'show');
    expect(reported).toEqual([
      { id: 'playground_speech_submit', action: 'click', logmap: { voice: 'en-us-female-1' } },
      { id: 'playground_speech_succeeded', action: 'show', logmap: {} },
    ]);
  });

  it('removes underscores so the id keeps exactly three valid segments', () => {
    listen();
    trackAction('voice_clone', 'voice_preview');
    expect(reported[0]!.id).toBe('playground_voiceclone_voicepreview');
    expect(reported[0]!.action).toBe('click');
    for (const e of reported) expect(isValidEventId(e.id)).toBe(true);
  });

  it('does nothing before the tracker is there', () => {
    expect(() => trackAction('speech', 'submit')).not.toThrow();
  });
});
