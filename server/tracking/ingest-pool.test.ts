// The ingest thread on a real SQLite file: stores and counts duplicates as the in-thread path does, and refuses with
// the same codes.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRACKING_ERROR_CODES } from '../../src/lib/product-rules';
import { signedText } from '../../src/lib/api-contract';
import { sealEntries, signBatch } from '../../src/lib/tracking/cipher';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db';
import { ingestThread } from './ingest-pool';
import type { IngestJob } from './ingest';

const AK = 'ab'.repeat(32);
const entry = (entryId: string) => ({
  entryId,
  coldStartId: 'c',
  seqId: 1,
  uid: '',
  time: 1,
  oid: 'page_view',
  action: 1,
  foid: '',
  ffid: '',
  logmap: { a: 1 },
});
const meta = { appKey: 'k', produceId: 'p', deviceId: 'd', queueId: '100000001', receivedAt: 5 };

function job(ids: string[], patch: Partial<IngestJob['body']> = {}): IngestJob {
  const fields = {
    token: 't',
    produceId: 'p',
    queueId: '100000001',
    sendTime: 1,
    batchCount: ids.length,
    msgEncrypt: sealEntries(ids.map(entry), AK),
    ...patch,
  };
  return { body: { ...fields, sign: patch.sign ?? signBatch(signedText(fields), AK) }, meta };
}

describe('tracking ingest thread', () => {
  let database: AppDatabase;
  let thread: ReturnType<typeof ingestThread>;
  afterEach(async () => {
    await thread.close();
    await database.close();
  });

  it('commits batches on its own connection, each answered with its own counts, duplicates skipped', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'ingest-')), 'app.db');
    database = await openDatabase(`sqlite:${file}`);
    await migrateToLatest(database);
    thread = ingestThread(file);
    const [a, b] = await Promise.all([thread.ingest(job(['e1', 'e2']), AK), thread.ingest(job(['e2', 'e3']), AK)]);
    expect(a).toEqual({ stored: 2, duplicates: 0 });
    expect(b).toEqual({ stored: 1, duplicates: 1 });
    expect(await thread.ingest(job(['e1']), AK)).toEqual({ stored: 0, duplicates: 1 });
    const rows = await database.db
      .selectFrom('tracking_events')
      .select(['entry_id', 'device_id', 'logmap'])
      .orderBy('entry_id')
      .execute();
    expect(rows).toEqual(['e1', 'e2', 'e3'].map((id) => ({ entry_id: id, device_id: 'd', logmap: '{"a":1}' })));
  });

  it('refuses a wrong sign, an undecryptable batch and a bad entry with their codes, storing nothing', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'ingest-')), 'app.db');
    database = await openDatabase(`sqlite:${file}`);
    await migrateToLatest(database);
    thread = ingestThread(file);
    await expect(thread.ingest(job(['x1'], { sign: '0'.repeat(64) }), AK)).rejects.toMatchObject({
      status: 403,
      code: TRACKING_ERROR_CODES.signMismatch,
    });
    await expect(thread.ingest(job(['x1'], { msgEncrypt: 'AAAA' }), AK)).rejects.toMatchObject({
      status: 400,
      code: TRACKING_ERROR_CODES.cipherError,
    });
    await expect(thread.ingest(job(['x1'], { batchCount: 2 }), AK)).rejects.toMatchObject({
      status: 400,
      code: TRACKING_ERROR_CODES.invalidEntry,
    });
    expect(await database.db.selectFrom('tracking_events').select('entry_id').execute()).toEqual([]);
  });
});
