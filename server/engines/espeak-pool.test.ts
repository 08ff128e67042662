// The eSpeak-NG thread pool: threads reused up to its size, calls independent of each other, aborts queued or running,
// idle threads ended, a capped queue.
import { afterEach, describe, expect, it } from 'vitest';
import { wavDuration } from '../media';
import { speechPool, type SpeechPool } from './espeak-pool';

const job = (text: string, voice = 'en-us+m3') => ({ text, voice, wpm: 175, pitch: 50 });

// A thread compiles the 18 MB WASM module when it starts: slow on a busy machine, hence the longer timeout.
describe('speech pool', { timeout: 60_000 }, () => {
  let pool: SpeechPool;
  afterEach(() => pool.close());

  it('runs many texts on at most `size` threads, and each answer is what that text alone gives', async () => {
    pool = speechPool(2);
    const alone = await pool.synthesize(job('The first text.'));
    const texts = [
      'The first text.',
      'A second, rather longer text to speak.',
      'Third.',
      'The first text.',
      'Fifth one here.',
    ];
    const answers = await Promise.all(texts.map((text) => pool.synthesize(job(text))));
    expect(pool.threadCount()).toBe(2);
    // The same text gives the same bytes whatever ran on the thread before: no state is carried between calls.
    expect(answers[0]!.equals(alone)).toBe(true);
    expect(answers[3]!.equals(alone)).toBe(true);
    expect(wavDuration(answers[1]!)!).toBeGreaterThan(wavDuration(answers[2]!)!);
  });

  it('a text aborted while waiting for a thread is refused with the reason and leaves the threads alone', async () => {
    pool = speechPool(1);
    const running = pool.synthesize(job('Busy for a moment.'));
    const controller = new AbortController();
    const waiting = pool.synthesize(job('Never spoken.'), controller.signal);
    controller.abort(new Error('task canceled'));
    await expect(waiting).rejects.toThrow('task canceled');
    expect(wavDuration(await running)!).toBeGreaterThan(0.5);
    expect(pool.threadCount()).toBe(1);
  });

  it('a text aborted while speaking ends its thread; the next text gets a new one', async () => {
    pool = speechPool(1);
    await pool.synthesize(job('Warm up.'));
    const controller = new AbortController();
    const long = pool.synthesize(job('A long text to speak. '.repeat(200)), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('task canceled'));
    await expect(long).rejects.toThrow('task canceled');
    expect(pool.threadCount()).toBe(0);
    expect(wavDuration(await pool.synthesize(job('Still here.')))!).toBeGreaterThan(0.3);
  });

  it('close refuses the text in progress and those still waiting', async () => {
    pool = speechPool(1);
    const answers = Promise.allSettled([pool.synthesize(job('One.')), pool.synthesize(job('Two.'))]);
    await pool.close();
    expect((await answers).map((a) => a.status === 'rejected' && String(a.reason))).toEqual([
      'Error: speech pool closed',
      'Error: speech pool closed',
    ]);
  });

  it('a thread idle for idleTimeoutMs ends, giving its memory back; the next text starts a new one', async () => {
    pool = speechPool(1, { idleTimeoutMs: 200 });
    await pool.synthesize(job('Then rest.'));
    expect(pool.threadCount()).toBe(1);
    await expect.poll(() => pool.threadCount(), { timeout: 5_000 }).toBe(0);
    expect(wavDuration(await pool.synthesize(job('Awake again.')))!).toBeGreaterThan(0.3);
  });

  it('refuses a text at once when maxQueue texts already wait for a thread, and speaks the others', async () => {
    pool = speechPool(1, { maxQueue: 1 });
    const running = pool.synthesize(job('Speaking now.'));
    const waiting = pool.synthesize(job('Waiting my turn.'));
    await expect(pool.synthesize(job('One too many.'))).rejects.toThrow(/queue/i);
    expect(wavDuration(await running)!).toBeGreaterThan(0.3);
    expect(wavDuration(await waiting)!).toBeGreaterThan(0.3);
  });
});
