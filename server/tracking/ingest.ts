// One sealed batch from signed body to table rows (sign, decrypt, entries), the same wherever it runs: the route or
// ./ingest-thread.
import type { KeyObject } from 'node:crypto';
import { TRACKING_ERROR_CODES } from '../../src/lib/product-rules';
import { signedText, type SignedBatchFields } from '../../src/lib/api-contract';
import { batchSignatureValid } from './cipher';
import type { EventRow } from './group-commit';
import { collectorError, sealedEntries } from './requests';
import type { WireEntry } from './entries';

export interface BatchMeta {
  appKey: string;
  produceId: string;
  deviceId: string;
  queueId: string;
  receivedAt: number;
}

/** What one batch needs once its token, key and budgets are checked: plain data, so it can be posted to a thread. */
export interface IngestJob {
  body: SignedBatchFields & { sign: string };
  meta: BatchMeta;
}

/** The table rows of a batch's entries. */
export function eventRows(entries: readonly WireEntry[], meta: BatchMeta): EventRow[] {
  const rows: EventRow[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    rows[i] = {
      entry_id: e.entryId,
      app_key: meta.appKey,
      produce_id: meta.produceId,
      device_id: meta.deviceId,
      cold_start_id: e.coldStartId,
      seq_id: e.seqId,
      uid: e.uid,
      time: e.time,
      oid: e.oid,
      action: e.action,
      foid: e.foid,
      ffid: e.ffid,
      logmap: e.logmapJson ?? JSON.stringify(e.logmap),
      queue_id: meta.queueId,
      received_at: meta.receivedAt,
    };
  }
  return rows;
}

/**
 * The rows of a batch whose sign holds, or the collector refusal (AppError) of the first check that fails.
 * Encrypt-then-MAC: the sign covers the ciphertext, so a tampered batch is refused before it is decrypted.
 */
export function checkedRows({ body, meta }: IngestJob, ak: KeyObject): EventRow[] {
  if (!batchSignatureValid(signedText(body), ak, body.sign)) {
    throw collectorError(
      403,
      TRACKING_ERROR_CODES.signMismatch,
      "sign: does not match the batch (altered in transit, or not signed with this token's key)",
    );
  }
  return eventRows(sealedEntries(body.msgEncrypt, ak, body.batchCount), meta);
}
