// Wrap points of names and paths: after "/", "_" and ".", the text itself unchanged.
import { describe, expect, it } from 'vitest';
import { wrapPieces } from './wrap-points';

describe('wrapPieces', () => {
  it.each([
    ['async/do_tts_common', ['async/', 'do_', 'tts_', 'common']],
    ['wan/image_to_video/2.1', ['wan/', 'image_', 'to_', 'video/', '2.', '1']],
    ['task.outputsExpiredAt', ['task.', 'outputsExpiredAt']],
    [
      'GET /api-playground/task/v1/features lists it.',
      ['GET /', 'api-playground/', 'task/', 'v1/', 'features lists it.'],
    ],
    ['remainingCredits', ['remainingCredits']],
  ])('%s', (text, pieces) => {
    expect(wrapPieces(text)).toEqual(pieces);
    expect(wrapPieces(text).join('')).toBe(text);
  });
});
