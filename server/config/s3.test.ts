// S3 media settings: off by default, the documented defaults when on, and clear refusals of values that cannot work.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '.';

describe('S3 media settings', () => {
  it('are off unless S3_BUCKET is set: media stays on local disk', () => {
    expect(loadConfig({}).s3).toBeNull();
  });

  it('default to us-east-1, virtual-host style and the SDK credential chain against AWS', () => {
    expect(loadConfig({ S3_BUCKET: 'media-bucket' }).s3).toEqual({
      bucket: 'media-bucket',
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('use path style by default with S3_ENDPOINT, take a key pair, and end the prefix with one slash', () => {
    const s3 = loadConfig({
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PREFIX: '/prod/media//',
    }).s3;
    expect(s3).toEqual({
      bucket: 'media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'prod/media/',
    });
    expect(
      loadConfig({ S3_BUCKET: 'media', S3_ENDPOINT: 'http://h:9000', S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle,
    ).toBe(false);
  });

  it.each([
    [{ S3_BUCKET: 'No_Such Bucket' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'media', S3_ENDPOINT: 'ftp://host' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'media', S3_REGION: 'Europe West' }, 'S3_REGION'],
    [{ S3_BUCKET: 'media', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    [{ S3_BUCKET: 'media', S3_PREFIX: 'a/../b' }, 'S3_PREFIX'],
    [{ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'id' }, 'S3_SECRET_ACCESS_KEY'],
    [{ S3_BUCKET: 'media', S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID'],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'S3_BUCKET'],
  ])('refuses %o and names %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
