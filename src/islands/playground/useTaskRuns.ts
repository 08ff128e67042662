// The account's runs store (src/lib/stores/runs.ts) as a task screen reads it: loaded with the screen's first run, so
// a screen's first load carries neither the store, nor the code that follows runs, nor the code that reads them.
import { useCallback, useEffect, useRef, useState } from 'react';
import type * as RunsStore from '../../lib/stores/runs';
import type { RunEntry } from '../../lib/stores/runs';
import type { Run } from './run';
import type * as RunView from './run-view';

type Loaded = typeof RunsStore & Pick<typeof RunView, 'viewOf' | 'newlyEnded'>;
type Entries = Record<string, RunEntry>;
type ViewOf = (runs: Run[], all: Entries) => Run[];

const NO_RUNS: Entries = {};
let loading: Promise<Loaded> | null = null;
const load = () =>
  (loading ??= Promise.all([import('../../lib/stores/runs'), import('./run-view')]).then(([store, view]) => ({
    ...store,
    viewOf: view.viewOf,
    newlyEnded: view.newlyEnded,
  })));

/** Before the store loads, a screen's runs are as submitted (none has a task to follow yet). */
const asSubmitted: ViewOf = (runs) => runs;

/**
 * `all` is the store's entries (none before the first run); `runs()` loads the store and starts listening; `peek()`
 * reads it between renders; `viewOf` shows a screen's runs as the store has them. `onChange` hears every change.
 */
export function useTaskRuns(onChange: (entries: Entries, loaded: Loaded) => void) {
  const [all, setAll] = useState<Entries>(NO_RUNS);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const store = useRef<Loaded | null>(null);
  const leave = useRef<(() => void) | null>(null);
  const heard = useRef(onChange);
  useEffect(() => {
    heard.current = onChange;
  }, [onChange]);

  const runs = useCallback(async () => {
    const m = (store.current ??= await load());
    if (!leave.current) {
      setLoaded(m);
      leave.current = m.$runs.listen((entries) => {
        setAll(entries);
        heard.current(entries, m);
      });
    }
    return m;
  }, []);
  useEffect(
    () => () => {
      leave.current?.();
      leave.current = null;
    },
    [],
  );
  const peek = useCallback(() => store.current?.$runs.get() ?? NO_RUNS, []);
  const viewOf = loaded?.viewOf ?? asSubmitted;
  return { all, runs, peek, viewOf };
}
