// Environment variables of the S3-compatible media store (S3_*; merged into the server configuration in index.ts).
import { z } from 'zod';
import { OBJECT_STORAGE } from '../../src/lib/product-rules';
import type { S3StoreSettings } from '../media/s3-store';

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const s3EnvShape = {
  /** Set: uploads and results live in this bucket instead of MEDIA_DIR (docs/configuration.md). */
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens, e.g. dreamapi-media',
    )
    .optional(),
  S3_ENDPOINT: z
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http:// or https:// URL, e.g. http://127.0.0.1:9000')
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,50}$/, 'must be a region name such as us-east-1')
    .default(OBJECT_STORAGE.defaultRegion),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag.optional(),
  S3_PREFIX: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9!_.*'()/-]+$/, "may hold letters, digits and ! _ . * ' ( ) / - only, e.g. media/")
    .refine((v) => !v.split('/').includes('..'), 'must not contain ".." segments')
    .optional(),
};

/** The bucket media lives in, as the media store takes it; null keeps media on local disk (MEDIA_DIR). */
export type S3Config = S3StoreSettings | null;

type S3Env = z.infer<z.ZodObject<typeof s3EnvShape>>;

/** `refuse` turns a problem between variables into the configuration error loadConfig throws. */
export function s3Config(e: S3Env, refuse: (message: string) => Error): S3Config {
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw refuse(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or both left unset to use the default credential chain)',
    );
  }
  if (!e.S3_BUCKET) {
    const stray = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX'] as const).filter(
      (name) => e[name] !== undefined,
    );
    if (stray.length > 0)
      throw refuse(`${stray.join(', ')}: set S3_BUCKET too, or media stays on local disk and these are ignored`);
    return null;
  }
  const prefix = (e.S3_PREFIX ?? '').replace(/^\/+|\/+$/g, '');
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT?.replace(/\/$/, '') ?? null,
    region: e.S3_REGION,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : null,
    // S3-compatible servers rarely have a DNS name per bucket, so path style is their default.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
    prefix: prefix ? `${prefix}/` : '',
  };
}
