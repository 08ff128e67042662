// Playground end to end (SPEC.md §2): speech, dialogue, video and lip sync on local engines, history, credits, guest
// draft, screenshots.
import { deflateSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PRODUCTS } from '../../src/lib/site/products';
import { useMailbox } from './support/mailbox';
import { enterMailedCode, hydrated, signInByMail, skipAboutYou } from './support/sign-in';
import { admin } from './support/admin';
import { ffmpegOutput, writeTestPatternMp4 } from '../../server/test-support/lavfi-media';

const root = path.resolve(import.meta.dirname, '../..');
const shots = path.join(root, 'test-results/screenshots');
const fixtures = mkdtempSync(path.join(os.tmpdir(), 'playground-e2e-'));
const mailbox = useMailbox();

test.beforeAll(() => {
  mkdirSync(shots, { recursive: true });
});

/** A small valid RGB PNG (a gradient), built by hand so the spec needs no image files. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1)
      rows.set([(x * 255) / width, (y * 255) / height, 160], y * (width * 3 + 1) + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 2-second MP4 with a test pattern and a WAV with a tone, made by the system's ffmpeg, the one the server uses. */
async function videoAndAudio(): Promise<{ video: string; audio: string }> {
  const video = path.join(fixtures, 'clip.mp4');
  const audio = path.join(fixtures, 'voice.wav');
  writeTestPatternMp4(process.env.FFMPEG_PATH ?? 'ffmpeg', video);
  writeFileSync(
    audio,
    await ffmpegOutput('voice.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000', '-t', '2']),
  );
  return { video, audio };
}

/**
 * Plays the media element and reports its duration once playback advanced. Each try finds the element anew and never
 * waits on one element's events: the page may replace it (the result and its history item re-render as the task
 * settles), and a listener on a replaced element would wait forever. The duration comes from the same look as the
 * playback: by a later look the first match may be another element, with no duration until its metadata loads.
 */
async function playedDuration(page: Page, testId: string): Promise<number> {
  const media = page.getByTestId(testId).first();
  // The result appears when the run ends: a video render on a busy machine can take longer than the default 5 s.
  await expect(media).toBeVisible({ timeout: 60_000 });
  let duration = 0;
  await expect
    .poll(
      async () =>
        (duration = await media.evaluate(async (el: HTMLMediaElement) => {
          el.muted = true;
          if (el.paused)
            await Promise.race([el.play().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
          return el.currentTime > 0 && Number.isFinite(el.duration) ? el.duration : 0;
        })),
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);
  return duration;
}

async function balance(page: Page): Promise<number> {
  const text = await page.getByTestId('balance').textContent();
  return Number(text);
}

async function features(page: Page): Promise<Map<string, boolean>> {
  const token = await page.evaluate(() => localStorage.getItem('userToken'));
  const res = await page.request.get('/api-playground/task/v1/features', { headers: { token: token ?? '' } });
  const body = (await res.json()) as { data: { list: Array<{ feature: string; available: boolean }> } };
  return new Map(body.data.list.map((f) => [f.feature, f.available]));
}

async function screenshots(page: Page) {
  // The cookie banner would cover the screens: choose once, as a visitor would.
  await page.getByRole('button', { name: 'Only necessary' }).click();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const product of PRODUCTS) {
      await page.goto(`/playground/${product.slug}`);
      await hydrated(page);
      await page.screenshot({ path: path.join(shots, `${product.slug}-${width}.png`), fullPage: true });
    }
  }
}

test('a guest keeps the inputs through the login modal, then speech, dialogue, video, history and credits work', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = `playground-${Date.now()}@example.com`;
  const text = 'Hello from the playground. This sentence checks that speech is generated and played.';

  // Guest: the draft survives the login modal (and a reload, since it lives in sessionStorage).
  await page.goto('/playground/speech');
  await hydrated(page);
  await page.getByLabel('Text', { exact: true }).fill(text);
  await expect(page.getByTestId('char-count')).toHaveText(String(text.length));
  await page.getByRole('button', { name: 'Generate speech' }).click();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' })).toBeVisible();
  await enterMailedCode(page, mailbox, email);
  await skipAboutYou(page);
  await expect(page.getByLabel('Text', { exact: true })).toHaveValue(text);
  admin('grant', email, '1000');
  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel('Text', { exact: true })).toHaveValue(text);

  // Speech: the previewed cost is what the balance loses.
  await page.getByLabel('Language').selectOption('en-GB');
  await page.getByRole('radio', { name: /Olivia/ }).check();
  await page.getByRole('radio', { name: 'Pro' }).check();
  await expect(page.getByTestId('balance')).toHaveText('1000');
  const cost = Number(await page.getByTestId('cost').textContent());
  expect(cost).toBe(Math.ceil(text.length / 200));
  await page.getByRole('button', { name: 'Generate speech' }).click();
  expect(await playedDuration(page, 'result-audio')).toBeGreaterThan(0);
  await expect(page.getByTestId('balance')).toHaveText(String(1000 - cost));
  await expect(page.getByText(`Done · ${cost} credit`)).toBeVisible();

  // Dialogue with two voices.
  await page.goto('/playground/dialogue');
  await hydrated(page);
  await page.getByLabel('Voice of Sam', { exact: true }).selectOption('fr-male-1');
  await page.getByLabel('Line 1 text').fill('Hi Sam, shall we test the dialogue?');
  await page.getByLabel('Line 2 text').fill('Yes Alex, with two different voices.');
  const before = await balance(page);
  const dialogueCost = Number(await page.getByTestId('cost').textContent());
  await page.getByRole('button', { name: 'Generate dialogue' }).click();
  expect(await playedDuration(page, 'result-audio')).toBeGreaterThan(0);
  await expect(page.getByTestId('balance')).toHaveText(String(before - dialogueCost));
  const history = page.getByTestId('history');
  await expect(history.getByText('Dialogue', { exact: true })).toHaveCount(1);

  // Video: image to video and lip sync run on the preview engine when this server has it.
  const available = await features(page);
  writeFileSync(path.join(fixtures, 'still.png'), png(320, 240));
  await page.goto('/playground/imageToVideo');
  await hydrated(page);
  if (available.get('image-to-video')) {
    await page.getByLabel('Image', { exact: true }).setInputFiles(path.join(fixtures, 'still.png'));
    await expect(page.getByText(/^image · /)).toBeVisible();
    await page.getByLabel('Prompt').fill('slow zoom in on the colours');
    await page.getByRole('radio', { name: /4s · 512p/ }).check();
    const videoBefore = await balance(page);
    const videoCost = Number(await page.getByTestId('cost').textContent());
    expect(videoCost).toBe(20);
    await page.getByRole('button', { name: 'Generate video' }).click();
    expect(await playedDuration(page, 'result-video')).toBeGreaterThan(0);
    await expect(page.getByTestId('balance')).toHaveText(String(videoBefore - videoCost));
  } else {
    await expect(page.getByText(/Image to video is not configured on this server/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Generate video' })).toBeDisabled();
  }

  await page.goto('/playground/lipSync');
  await hydrated(page);
  if (available.get('talking-face')) {
    const { video, audio } = await videoAndAudio();
    await page.getByLabel('Video', { exact: true }).setInputFiles(video);
    await expect(page.getByText(/^video · /)).toBeVisible();
    await page.getByLabel('Audio', { exact: true }).setInputFiles(audio);
    await expect(page.getByText(/^audio · /)).toBeVisible();
    await expect(page.getByTestId('cost')).toHaveText('2');
    await page.getByRole('button', { name: 'Generate video' }).click();
    expect(await playedDuration(page, 'result-video')).toBeGreaterThan(0);
    await expect(page.getByTestId('history').getByText('Lip sync', { exact: true })).toHaveCount(1);
  } else {
    await expect(page.getByText(/Lip sync is not configured on this server/)).toBeVisible();
  }

  // History on the speech screen: the task is listed with its audio, and delete removes it.
  await page.goto('/playground/speech');
  await hydrated(page);
  const items = page.getByTestId('history').getByRole('listitem');
  await expect(items).toHaveCount(1);
  await expect(items.first().getByTestId('result-audio')).toBeVisible();
  await items
    .first()
    .getByRole('button', { name: /^Delete/ })
    .click();
  await expect(items).toHaveCount(0);
  await page.reload();
  await hydrated(page);
  await expect(page.getByText('Nothing yet.')).toBeVisible();

  await screenshots(page);
});

test('too few credits offers the top-up, and bad input says what to fix', async ({ page }) => {
  await page.goto('/playground');
  await signInByMail(page, mailbox, `poor-${Date.now()}@example.com`);
  await page.goto('/playground/speech');
  await hydrated(page);
  await page.getByRole('button', { name: 'Generate speech' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'write something to speak' })).toBeVisible();
  await page.getByLabel('Text', { exact: true }).fill('Not enough credits for this.');
  await expect(page.getByRole('link', { name: 'Top up credits' })).toHaveAttribute('href', '/pricing#credit-packs');
  await page.getByRole('button', { name: 'Generate speech' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Not enough credits' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('link', { name: 'Top up credits' })).toBeVisible();
});
