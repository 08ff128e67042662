// GET /voice-preview/:voiceId: a short free sample of each playground voice, synthesized once and kept in memory.
import { Hono } from 'hono';
import type { AppDeps } from './deps';
import { synthesize } from '../engines';
import { AppError } from '../http/errors';
import { ERROR_CODES, voiceById } from '../../src/lib/product-rules';
import { bodyCap } from './body-cap';

/** Fourteen short WAVs at most (one per voice), so the cache needs no eviction. */
const cache = new Map<string, Promise<Buffer>>();

/** Its own area, outside /api-playground/*, so guests can listen before they sign in; it charges nothing. */
export function voicePreviewRoutes({ config }: AppDeps) {
  const app = new Hono();
  app.use('*', bodyCap(config.bodyLimitBytes));
  app.get('/:voiceId', async (c) => {
    const voice = voiceById(c.req.param('voiceId'));
    if (!voice)
      throw new AppError(
        404,
        ERROR_CODES.notFound,
        'voiceId: no such voice; GET /api-playground/speech/v1/voice_list lists them',
      );
    let sample = cache.get(voice.id);
    if (!sample) {
      sample = synthesize(`Hi, I'm ${voice.name}. This is how I sound.`, voice.espeak);
      cache.set(voice.id, sample);
      // A failed synthesis is not cached: the next request tries again.
      sample.catch(() => cache.delete(voice.id));
    }
    const bytes = await sample;
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': 'audio/wav',
      'cache-control': 'public, max-age=86400',
    });
  });
  return app;
}
