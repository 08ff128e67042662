// The user's cloned voices: succeeded voice-clone tasks from the history, with the names given on this device.
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { TASK_LIMITS } from '../../lib/product-rules';
import { $loggedIn } from '../../lib/stores/signed-in';
import { local } from '../../lib/storage';
import { playgroundApi } from './api';
import { $historyTick } from './history-store';

export interface ClonedVoice {
  cloneId: string;
  name: string;
}

const NAMES_KEY = 'playgroundCloneNames';

function names(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(local.get(NAMES_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The server stores no name for a clone (DreamAPI voice_clone takes only voiceUrl), so the name lives here. */
export function nameClone(taskId: string, name: string): void {
  local.set(NAMES_KEY, JSON.stringify({ ...names(), [taskId]: name }));
}

export function useClonedVoices(): ClonedVoice[] {
  const loggedIn = useStore($loggedIn);
  const tick = useStore($historyTick);
  const [voices, setVoices] = useState<ClonedVoice[]>([]);
  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    playgroundApi
      .list({ page: 1, pageSize: TASK_LIMITS.maxPageSize, feature: 'voice-clone' })
      .then(({ list }) => {
        const known = names();
        if (live)
          setVoices(
            list
              .filter((t) => t.status === 'succeeded' && t.cloneId)
              .map((t, i) => ({ cloneId: t.cloneId!, name: known[t.taskId] ?? `My voice ${list.length - i}` })),
          );
      })
      .catch(() => {
        // Without the list the picker offers the standard voices only.
      });
    return () => {
      live = false;
    };
  }, [loggedIn, tick]);
  return loggedIn ? voices : [];
}
