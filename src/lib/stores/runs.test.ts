// The account's runs store: the newest state of a task wins whichever way it came, and the balance is read again when
// a run starts, ends or is canceled (not for runs that were already over when first heard of).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskView } from '../api';

const refreshUser = vi.fn(() => Promise.resolve(null));
const cancel = vi.fn<(taskId: string) => Promise<TaskView>>();
vi.mock('./signed-in', async (original) => ({ ...(await original<object>()), refreshUser }));
vi.mock('../api', async (original) => ({
  ...(await original<object>()),
  playgroundApi: { cancel, poll: vi.fn() },
}));

const { $runs, cancelRun, putRun, putRuns, resetRuns, runStarted } = await import('./runs');

const view = (status: TaskView['status'], progress = 0, taskId = 't1'): TaskView =>
  ({ taskId, status, progress, creditsHeld: 5, credits: 5 }) as TaskView;

beforeEach(() => {
  resetRuns();
  refreshUser.mockClear();
});

describe('the runs store', () => {
  it('keeps the newest state: a page read earlier never takes a run back to queued or to less progress', () => {
    putRun(view('running', 40));
    putRuns([view('queued')]);
    expect($runs.get().t1!.view).toMatchObject({ status: 'running', progress: 40 });
    putRun(view('running', 20));
    expect($runs.get().t1!.view.progress).toBe(40);
    putRun(view('succeeded', 100));
    putRun(view('running', 90));
    expect($runs.get().t1!.view.status).toBe('succeeded');
  });

  it('notes when the run was first seen running, and keeps it', () => {
    putRun(view('queued'));
    expect($runs.get().t1!.runningSince).toBeNull();
    putRun(view('running', 10));
    const since = $runs.get().t1!.runningSince;
    expect(since).toEqual(expect.any(Number));
    putRun(view('running', 50));
    expect($runs.get().t1!.runningSince).toBe(since);
  });

  it('reads the balance when a run starts and when one it saw unfinished ends, not for runs already over', () => {
    runStarted(view('queued'));
    expect(refreshUser).toHaveBeenCalledTimes(1);
    putRun(view('running', 50));
    expect(refreshUser).toHaveBeenCalledTimes(1);
    putRun(view('failed', 50));
    expect(refreshUser).toHaveBeenCalledTimes(2);
    putRuns([view('succeeded', 100, 'old'), view('canceled', 0, 'older')]);
    expect(refreshUser).toHaveBeenCalledTimes(2);
  });

  it('a cancel ends the run with the server’s answer and reads the balance', async () => {
    putRun(view('running', 30));
    cancel.mockResolvedValueOnce(view('canceled', 30));
    await cancelRun('t1');
    expect(cancel).toHaveBeenCalledWith('t1');
    expect($runs.get().t1!.view.status).toBe('canceled');
    expect(refreshUser).toHaveBeenCalledTimes(1);
  });

  it('a cancel refused (the run had just finished) changes nothing', async () => {
    putRun(view('running', 30));
    cancel.mockRejectedValueOnce(new Error('Only queued or running tasks can be canceled'));
    await cancelRun('t1');
    expect($runs.get().t1!.view.status).toBe('running');
  });
});
