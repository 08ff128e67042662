// Uploads are checked in the browser by the server's own rules (UPLOAD_LIMITS): type, size and length, with messages to
// act on.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_LIMITS } from '../../lib/product-rules';
import { acceptOf, checkDuration, checkFile, describeLimits, mediaDuration } from './media-check';

const MB = 1024 * 1024;

afterEach(() => vi.restoreAllMocks());

describe('acceptOf and describeLimits', () => {
  it('accepts exactly the MIME types of the kinds asked for', () => {
    expect(acceptOf(['image'])).toBe(UPLOAD_LIMITS.image.mimes.join(','));
    expect(acceptOf(['audio', 'video']).split(',')).toEqual([
      ...UPLOAD_LIMITS.audio.mimes,
      ...UPLOAD_LIMITS.video.mimes,
    ]);
  });

  it('names the types as people know them, with the size and length limits', () => {
    expect(describeLimits('audio')).toBe('WAV, MP3, M4A, AAC, OGG/Opus, FLAC, WEBM; up to 20 MB and 300 s');
    expect(describeLimits('video')).toBe('MP4, MOV, WEBM; up to 100 MB and 300 s');
    expect(describeLimits('image')).toBe('PNG, JPEG, WEBP, GIF; up to 10 MB');
  });
});

describe('checkFile', () => {
  it.each([
    ['audio/x-wav', 'audio'],
    ['audio/wave', 'audio'],
    ['audio/vnd.wave', 'audio'],
    ['audio/mp3', 'audio'],
    ['audio/x-m4a', 'audio'],
    ['audio/m4a', 'audio'],
    ['audio/x-aac', 'audio'],
    ['audio/x-flac', 'audio'],
    ['audio/opus', 'audio'],
    ['image/jpg', 'image'],
    ['video/quicktime', 'video'],
  ] as const)('takes the browser name %s as %s', (type, kind) => {
    expect(checkFile({ type, size: 1000 }, ['audio', 'image', 'video'])).toEqual({ kind });
  });

  it('answers the kind among several that the file is', () => {
    expect(checkFile({ type: 'image/png', size: 10 }, ['audio', 'image'])).toEqual({ kind: 'image' });
    expect(checkFile({ type: 'audio/mpeg', size: 10 }, ['audio', 'image'])).toEqual({ kind: 'audio' });
  });

  it('refuses another type and says what is accepted here', () => {
    expect(checkFile({ type: 'video/mp4', size: 10 }, ['audio'])).toEqual({
      error: `This file type is not accepted here. Choose ${describeLimits('audio')}.`,
    });
    expect(checkFile({ type: '', size: 10 }, ['image', 'video'])).toEqual({
      error: `This file type is not accepted here. Choose ${describeLimits('image')} or ${describeLimits('video')}.`,
    });
  });

  it('refuses an empty file', () => {
    expect(checkFile({ type: 'image/png', size: 0 }, ['image'])).toEqual({
      error: 'This file is empty. Choose another file.',
    });
  });

  it('accepts up to the limit of the kind and refuses one byte more with both sizes', () => {
    expect(checkFile({ type: 'image/png', size: UPLOAD_LIMITS.image.maxBytes }, ['image'])).toEqual({ kind: 'image' });
    expect(checkFile({ type: 'image/png', size: UPLOAD_LIMITS.image.maxBytes + 1 }, ['image'])).toEqual({
      error: 'This image is 10.0 MB; the limit is 10 MB. Choose a smaller file.',
    });
    expect(checkFile({ type: 'video/mp4', size: 150 * MB }, ['video'])).toEqual({
      error: 'This video is 150.0 MB; the limit is 100 MB. Choose a smaller file.',
    });
    expect(checkFile({ type: 'video/mp4', size: 50 * MB }, ['video'])).toEqual({ kind: 'video' });
  });
});

describe('checkDuration', () => {
  it('accepts up to the limit and refuses longer media, rounded up to whole seconds', () => {
    expect(checkDuration('audio', UPLOAD_LIMITS.audio.maxDurationS!)).toBeNull();
    expect(checkDuration('audio', 300.2)).toBe('This audio is 301 s long; the limit is 300 s. Trim it and try again.');
    expect(checkDuration('video', 900)).toBe('This video is 900 s long; the limit is 300 s. Trim it and try again.');
  });

  it('leaves unknown lengths and images to the server', () => {
    expect(checkDuration('audio', null)).toBeNull();
    expect(checkDuration('video', Number.NaN)).toBeNull();
    expect(checkDuration('video', Number.POSITIVE_INFINITY)).toBeNull();
    expect(checkDuration('image', 10_000)).toBeNull();
  });
});

describe('mediaDuration', () => {
  /** Catches the media element mediaDuration makes, so the test can play the browser's part: metadata or an error. */
  function catchMediaElement() {
    const made: HTMLMediaElement[] = [];
    const create = document.createElement.bind(document);
    vi.spyOn(document, 'createElement').mockImplementation((tag: string, options?: ElementCreationOptions) => {
      const el = create(tag, options);
      if (el instanceof HTMLMediaElement) made.push(el);
      return el;
    });
    const revoked: string[] = [];
    const revoke = URL.revokeObjectURL.bind(URL);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => {
      revoked.push(url);
      revoke(url);
    });
    return { made, revoked };
  }

  it('is null for an image without reading it', async () => {
    const { made } = catchMediaElement();
    expect(await mediaDuration(new Blob(['x'], { type: 'image/png' }), 'image')).toBeNull();
    expect(made).toEqual([]);
  });

  it('reads the length from the metadata of an audio or video element, and frees the object URL', async () => {
    for (const kind of ['audio', 'video'] as const) {
      const { made, revoked } = catchMediaElement();
      const pending = mediaDuration(new Blob(['x'], { type: `${kind}/webm` }), kind);
      const el = made[0]!;
      expect(el.tagName.toLowerCase()).toBe(kind);
      expect(el.preload).toBe('metadata');
      Object.defineProperty(el, 'duration', { value: 42.5 });
      el.dispatchEvent(new Event('loadedmetadata'));
      expect(await pending).toBe(42.5);
      expect(revoked).toEqual([el.src]);
      vi.restoreAllMocks();
    }
  });

  it('is null when the browser cannot tell the length or cannot read the file', async () => {
    let caught = catchMediaElement();
    let pending = mediaDuration(new Blob(['x']), 'audio');
    Object.defineProperty(caught.made[0]!, 'duration', { value: Number.POSITIVE_INFINITY });
    caught.made[0]!.dispatchEvent(new Event('loadedmetadata'));
    expect(await pending).toBeNull();
    vi.restoreAllMocks();

    caught = catchMediaElement();
    pending = mediaDuration(new Blob(['x']), 'video');
    caught.made[0]!.dispatchEvent(new Event('error'));
    expect(await pending).toBeNull();
    expect(caught.revoked).toHaveLength(1);
  });
});
