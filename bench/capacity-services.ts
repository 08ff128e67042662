// The capacity bench's outside services in a process of their own (as they would be on other machines): the fixed-time
// fal stand-in and an S3 server.
import { startTestS3 } from '../server/test-support/s3';
import { startFixedTimeFal } from './capacity-fal';

export interface Services {
  fal: { url: string; key: string };
  /** S3_* settings that reach the bucket. */
  s3: Record<string, string>;
}

const fal = await startFixedTimeFal(Number(process.argv[2]));
const s3 = await startTestS3();
const services: Services = { fal: { url: fal.url, key: fal.key }, s3: s3.env('capacity') };
process.stdout.write(`${JSON.stringify(services)}\n`);
process.once('SIGTERM', () => void Promise.all([fal.close(), s3.close()]).finally(() => process.exit(0)));
