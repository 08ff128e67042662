// The collector protocol's signed-text layouts (docs/tracking-protocol.md): pure strings that browser and collector
// both build. No crypto here (crypto-js stays in the worker, node:crypto in the server), no zod: the worker bundle
// imports this file directly.

/** The track_info fields that `sign` covers. */
export interface SignedBatchFields {
  token: string;
  produceId: string;
  queueId: string;
  sendTime: number;
  batchCount: number;
  msgEncrypt: string;
}

/** The text the track_info HMAC `sign` covers: the fields in this order, joined by '\n'. */
export function signedText(body: SignedBatchFields): string {
  return [
    body.token,
    body.produceId,
    body.queueId,
    String(body.sendTime),
    String(body.batchCount),
    body.msgEncrypt,
  ].join('\n');
}

/** The text the message checksum `sign` (SHA-256 hex) covers: "appKey\ndeviceId\nmessage". */
export function messageSignedText(appKey: string, deviceId: string, message: string): string {
  return `${appKey}\n${deviceId}\n${message}`;
}
