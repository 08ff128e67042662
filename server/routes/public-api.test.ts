// Public API over real HTTP (fetch): TTS end to end with a playable WAV and the price-table charge, webhooks, uploads,
// limits.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quote } from '../../src/lib/product-rules';
import { wavDuration } from '../media';
import { servePublicApi, type PublicApiServer } from '../test-support/public-api-server';
import { creditState, type TasksTestApp, type TestUser } from '../test-support/tasks';
import { silentWav } from '../test-support/wav';

let served: PublicApiServer;
let t: TasksTestApp;
let base: string;
let user: TestUser;

beforeAll(async () => {
  served = await servePublicApi({ WEBHOOK_RETRY_BASE_MS: '100' }, 100);
  ({ t, base, user } = served);
});
afterAll(() => served.close());

const api: PublicApiServer['api'] = (path, body, headers) => served.api(path, body, headers);
const poll = (taskId: string) => served.poll(taskId);

describe('TTS through the public API', () => {
  it('returns a playable WAV whose length matches the text, charged by the price table', async () => {
    const text =
      'The quick brown fox jumps over the lazy dog. Speech synthesis runs offline on this server, with no key at all.';
    const before = (await api('/api/remaining_credits', {})).body.data.remainingCredits;
    const submitted = await api('/api/async/do_tts_common', { text, audioId: 'en-gb-male-1' });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ code: 0, message: 'success' });
    const data = await poll(submitted.body.data.taskId);
    expect(data.task).toMatchObject({ status: 3, taskType: 'do_tts_common', reason: '' });
    expect(data.audios).toHaveLength(1);
    const audio = await fetch(data.audios[0].audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    const wav = Buffer.from(await audio.arrayBuffer());
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.toString('latin1', 8, 12)).toBe('WAVE');
    const seconds = wavDuration(wav)!;
    // About 20 words: at eSpeak's 175 words per minute, spoken speech lasts a few seconds, not milliseconds or minutes.
    const words = text.split(/\s+/).length;
    expect(seconds).toBeGreaterThan((words / 175) * 60 * 0.5);
    expect(seconds).toBeLessThan((words / 175) * 60 * 2);
    const price = quote('tts-common', { characters: [...text].length });
    expect(data.task.credits).toBe(price);
    const after = (await api('/api/remaining_credits', {})).body.data.remainingCredits;
    expect(before - after).toBe(price);
    const state = await creditState(t, user.id);
    expect(state.ledgerSum).toBe(state.balance);
  });

  it('a dialogue joins one voice per speaker into one WAV longer than its lines', async () => {
    const res = await fetch(`${base}/api-playground/speech/v1/dialogue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: user.token },
      body: JSON.stringify({
        lines: [
          { speaker: 'A', text: 'Hi there.' },
          { speaker: 'B', text: 'Hello, how are you?' },
          { speaker: 'A', text: 'Fine, thanks.' },
        ],
        voices: { A: 'en-us-female-1', B: 'en-us-male-1' },
      }),
    });
    const body = await res.json();
    expect(body.code).toBe(0);
    const data = await poll(body.data.taskId);
    expect(data.task.status).toBe(3);
    const wav = Buffer.from(await (await fetch(data.audios[0].audioUrl)).arrayBuffer());
    expect(wavDuration(wav)!).toBeGreaterThan(1);
  });

  it('puts rate-limit headers on every answer, errors included', async () => {
    for (const r of [
      await api('/api/remaining_credits', {}),
      await api('/api/getAsyncResult', { taskId: 'nope' }),
      await api('/api/remaining_credits', {}, { authorization: 'Bearer wrong' }),
    ]) {
      expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    }
  });

  it('refuses bad fields with DreamAPI code 10192 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ text: '' }, 'text'],
      [{ text: 5 }, 'text'],
      [{ text: 'hi', audioId: 'robot-9' }, 'audioId'],
      [{ text: 'hi', callbackUrl: 'ftp://x' }, 'callbackUrl'],
    ];
    for (const [body, field] of cases) {
      const r = await api('/api/async/do_tts_common', body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(10192);
      expect(r.body.message).toContain(field);
    }
    const wrongKey = await api('/api/async/do_tts_common', { text: 'hi' }, { authorization: 'Bearer sk-not-a-key' });
    expect(wrongKey.status).toBe(401);
  });
});

describe('webhooks', () => {
  it('signs deliveries the Standard Webhooks way and retries after a 500', async () => {
    const secret = (await api('/api/webhook_secret', {})).body.data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const received: Array<{ status: number; verified: boolean; id: string; body: any }> = [];
    const receiver = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      const ts = String(req.headers['webhook-timestamp']);
      const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
        .update(`${id}.${ts}.${raw}`)
        .digest('base64');
      const verified =
        String(req.headers['webhook-signature']).split(' ').includes(`v1,${expected}`) &&
        Math.abs(Date.now() / 1000 - Number(ts)) < 300;
      const status = received.length === 0 ? 500 : 200;
      received.push({ status, verified, id, body: JSON.parse(raw) });
      res.writeHead(status).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const submitted = await api('/api/async/do_tts_pro', { text: 'Webhook test.', lan: 'en', callbackUrl: url });
      await poll(submitted.body.data.taskId);
      for (let i = 0; i < 200 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 25));
      expect(received).toHaveLength(2);
      expect(received.map((r) => r.status)).toEqual([500, 200]);
      expect(received.every((r) => r.verified)).toBe(true);
      expect(received[0]!.id).toBe(received[1]!.id);
      expect(received[1]!.body).toMatchObject({
        type: 'task.succeeded',
        data: { task: { taskId: submitted.body.data.taskId, status: 3 } },
      });
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe('idempotency over HTTP', () => {
  it('replays the same task for the same key and body, 409 for another body', async () => {
    const headers = { 'idempotency-key': 'order-42' };
    const a = await api('/api/async/do_tts_common', { text: 'Same request' }, headers);
    const b = await api('/api/async/do_tts_common', { text: 'Same request' }, headers);
    expect(b.body.data.taskId).toBe(a.body.data.taskId);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const c = await api('/api/async/do_tts_common', { text: 'Other request' }, headers);
    expect(c.status).toBe(409);
    expect(c.body.message).toContain('Idempotency-Key');
    const holds = (await creditState(t, user.id)).ledger.filter(
      (r) => r.reference === a.body.data.taskId && r.reason === 'task-hold',
    );
    expect(holds).toHaveLength(1);
  });
});

describe('three-step upload', () => {
  const wavBytes = (seconds: number) => silentWav(seconds, 8000);

  async function upload(bytes: Buffer, name: string, scene = 'audio') {
    const policy = (await api('/api/file/v1/get_policy', { scene })).body.data;
    const form = new FormData();
    for (const [k, v] of Object.entries(policy.fields as Record<string, string>)) form.set(k, v);
    form.set('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(policy.host, { method: 'POST', body: form });
    return { policy, status: res.status, body: await res.json() };
  }

  it('get_policy → form upload → policy_upload_finish gives a URL serving the file', async () => {
    const up = await upload(wavBytes(2), 'voice.wav');
    expect(up.status).toBe(200);
    const finish = await api('/api/file/v1/policy_upload_finish', { reqId: up.policy.reqId });
    expect(finish.body.code).toBe(0);
    expect(finish.body.data.durationS).toBeCloseTo(2, 1);
    const file = await fetch(finish.body.data.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).length).toBe(wavBytes(2).length);
    // A tampered signature is refused (its first character changed: to 'y' when it already was an 'x').
    const forged = new URL(finish.body.data.url);
    const sig = forged.searchParams.get('sig')!;
    forged.searchParams.set('sig', (sig[0] === 'x' ? 'y' : 'x') + sig.slice(1));
    expect((await fetch(forged)).status).toBe(403);
  });

  it('refuses a text file named .wav, an image where audio is expected, and audio over the duration cap', async () => {
    const disguised = await upload(Buffer.from('just some text, not audio at all'), 'song.wav');
    expect(disguised.status).toBe(415);
    expect(disguised.body.msg).toContain('not a recognised media file');
    // A PNG signature and the IHDR chunk header that must follow it: a signature alone is no image to the sniffer.
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      Buffer.from('IHDR'),
      Buffer.alloc(64),
    ]);
    const wrongKind = await upload(png, 'voice.wav');
    expect(wrongKind.status).toBe(415);
    expect(wrongKind.body.msg).toContain('image/png');
    const tooLong = await upload(wavBytes(301), 'long.wav');
    expect(tooLong.status).toBe(413);
    expect(tooLong.body.msg).toContain('300 seconds');
    const noPolicy = await fetch(`${base}/api/file/v1/upload`, {
      method: 'POST',
      body: (() => {
        const f = new FormData();
        f.set('reqId', 'x');
        f.set('signature', 'y');
        f.set('file', new Blob([wavBytes(1)]));
        return f;
      })(),
    });
    expect(noPolicy.status).toBe(403);
  });

  it('refuses an upload over the size cap before reading it all', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(101 * 1024 * 1024)]), 'big.mp4');
    const res = await fetch(`${base}/api-playground/file/v1/upload`, {
      method: 'POST',
      headers: { token: user.token },
      body: form,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).msg).toContain('MB');
  });
});
