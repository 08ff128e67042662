// GET /media on local disk: the file is streamed, whole or the one range a player asks for; a range past the end is
// 416.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTasksTestApp, createUser, uploadAs, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { silentWav } from '../test-support/wav';

let t: TasksTestApp;
let user: TestUser;
let path: string;
let bytes: Buffer;

beforeAll(async () => {
  t = await createTasksTestApp();
  user = await createUser(t, 100);
  bytes = silentWav(2, 8000);
  const url = new URL((await uploadAs(t, user, new Uint8Array(bytes), 'voice.wav', 'audio/wav')).url);
  path = url.pathname + url.search;
});
afterAll(() => t.close());

const get = (range?: string) => t.app.request(path, { headers: range ? { range } : {} });

describe('media downloads', () => {
  it('sends the whole file with its length and says ranges are accepted', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers a range with 206 and exactly those bytes; an open range and a suffix too', async () => {
    const res = await get('bytes=10-99');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 10-99/${bytes.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(10, 100))).toBe(true);
    const tail = await get(`bytes=${bytes.length - 5}-`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(-5))).toBe(true);
    const suffix = await get('bytes=-7');
    expect(suffix.headers.get('content-range')).toBe(`bytes ${bytes.length - 7}-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(-7))).toBe(true);
  });

  it('answers 416 for a range past the end, and the whole file for one it cannot read', async () => {
    const past = await get(`bytes=${bytes.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    const odd = await get('bytes=0-1,5-9');
    expect(odd.status).toBe(200);
    expect((await odd.arrayBuffer()).byteLength).toBe(bytes.length);
  });
});
