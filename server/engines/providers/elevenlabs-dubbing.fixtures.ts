// The dubbing surface of the ElevenLabs stand-in (elevenlabs.fixtures.ts): a dub's submit, its polls walking through
// the statuses, its audio and its delete. Sources as cited in elevenlabs.fixtures.ts.
import type { ServerResponse } from 'node:http';
import { answers, type Call, type Mode } from './elevenlabs-calls.fixtures';

/**
 * The statuses a dub walks through before it ends dubbed or failed (elevenlabs/elevenlabs-js@87100890798f
 * src/api/resources/dubbing/types/DubbingListRequestDubbingStatusesItem.ts), one per poll.
 */
const DUBBING_WALK = ['queued', 'preparing', 'dubbing'] as const;
/**
 * A status no source lists yet: DubbingMetadataResponse.status is a plain string (elevenlabs/elevenlabs-
 * js@87100890798f src/api/types/DubbingMetadataResponse.ts).
 */
const NEW_STATUS = 'rendering';
/** When every dub here was made: DubbingMetadataResponse.created_at is required (ISO 8601 date-time). */
const CREATED_AT = '2026-11-27T00:00:00Z';

/**
 * The status of a job's next poll: 'ok' walks queued → preparing → dubbing → dubbed, one step a poll; 'gated' walks the
 * same way but stays dubbing until released; 'new-status' answers a status no source lists before it is dubbed;
 * 'fail' ends failed after queued; 'hang' never ends.
 */
function dubbingStatus(job: { mode: Mode; polls: number }, released: boolean): string {
  const walking = DUBBING_WALK[Math.min(job.polls, DUBBING_WALK.length - 1)]!;
  if (job.mode === 'ok') return job.polls < DUBBING_WALK.length ? walking : 'dubbed';
  if (job.mode === 'gated') return released && job.polls >= DUBBING_WALK.length ? 'dubbed' : walking;
  if (job.mode === 'new-status') return job.polls < 2 ? NEW_STATUS : 'dubbed';
  if (job.mode === 'fail') return job.polls === 0 ? 'queued' : 'failed';
  return walking;
}

/** The dubbing half of the fake; `dubbed` is the video a finished dub's audio answers with. */
export function elevenLabsDubbingFake(state: { mode: Mode; released: boolean }, dubbed: string) {
  const jobs = new Map<string, { mode: Mode; target: string; polls: number; statuses: string[]; deleted: boolean }>();

  /** A dubbing call, answered; false when it is not one. */
  function handle(res: ServerResponse, url: URL, call: Call): boolean {
    const { send, html, file } = answers(res);
    if (call.method === 'POST' && url.pathname === '/v1/dubbing') {
      if (state.mode === 'malformed') return html();
      if (typeof call.form?.file !== 'object' || typeof call.form.target_lang !== 'string')
        return send(400, {
          detail: { status: 'invalid_request', message: 'Provide a file or a source_url and a target_lang' },
        });
      // A field that fails validation: 422 HTTPValidationError, detail[] of {loc, msg, type} naming it
      // (elevenlabs/elevenlabs-docs@3557f0b1bec8 fern/apis/api/openapi.json, components.schemas.HTTPValidationError and
      // ValidationError). Which codes pass is the stand-in's own simplification: two or three lowercase letters.
      if (!/^[a-z]{2,3}$/.test(call.form.target_lang))
        return send(422, {
          detail: [
            {
              loc: ['body', 'target_lang'],
              msg: `Unsupported target language: ${call.form.target_lang}`,
              type: 'value_error',
            },
          ],
        });
      const id = `dub${jobs.size + 1}`;
      jobs.set(id, { mode: state.mode, target: call.form.target_lang, polls: 0, statuses: [], deleted: false });
      return send(200, { dubbing_id: id, expected_duration_sec: 2 });
    }
    const dub = /^\/v1\/dubbing\/([^/]+)(\/audio\/([^/]+))?$/.exec(url.pathname);
    if (!dub) return false;
    const job = jobs.get(dub[1]!);
    if (!job || job.deleted)
      return send(404, { detail: { status: 'dubbing_not_found', message: 'Dubbing not found' } });
    // DELETE /v1/dubbing/{dubbing_id} answers {status: 'ok'} (elevenlabs/elevenlabs-js@87100890798f
    // src/api/resources/dubbing/client/Client.ts delete(), src/api/types/DeleteDubbingResponseModel.ts); the job is
    // gone afterwards.
    if (call.method === 'DELETE' && !dub[3]) {
      job.deleted = true;
      return send(200, { status: 'ok' });
    }
    if (call.method === 'GET' && dub[3])
      return dub[3] === job.target
        ? file(dubbed, 'video/mp4')
        : send(404, { detail: { status: 'language_not_found', message: 'No dub for this language' } });
    if (call.method === 'GET') {
      const status = dubbingStatus(job, state.released);
      job.polls++;
      job.statuses.push(status);
      // GET /v1/dubbing/{dubbing_id} answers DubbingMetadataResponse: dubbing_id, name, status, target_languages and
      // created_at required, error when failed (elevenlabs/elevenlabs-js@87100890798f
      // src/api/types/DubbingMetadataResponse.ts; 2.73.0 serialization/types/DubbingMetadataResponse.js;
      // elevenlabs/elevenlabs-docs@3557f0b1bec8 fern/apis/api/openapi.json
      // components.schemas.DubbingMetadataResponse.required).
      return send(200, {
        dubbing_id: dub[1],
        name: 'x',
        status,
        target_languages: [job.target],
        created_at: CREATED_AT,
        ...(status === 'failed' ? { error: 'No speech was found in the video' } : {}),
      });
    }
    return false;
  }

  return {
    handle,
    /** Forgets the jobs of the last test (dubbing ids start again at dub1). */
    forget: () => jobs.clear(),
    /** The statuses each dubbing job answered, poll by poll. */
    statuses: (id: string) => jobs.get(id)?.statuses ?? [],
    /** Dubs still running here: neither deleted nor last seen dubbed or failed. */
    running: () =>
      [...jobs]
        .filter(([, j]) => !j.deleted && !['dubbed', 'failed'].includes(j.statuses.at(-1) ?? ''))
        .map(([id]) => id),
  };
}
