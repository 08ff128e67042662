// DreamAPI's HTTP surface: Bearer calls answering {code, message, data}, the three-step upload, and errors mapped to
// reasons.
import { DREAMAPI_CODES, DREAMAPI_PATHS, DREAMAPI_UPLOAD } from './dreamapi-constants';
import { PROVIDER_RETRY } from '../../../src/lib/product-rules';
import { dreamApiAnswerFailure, dreamApiRefusal, PROVIDER } from './dreamapi-errors';
import { json, providerFetch, ProviderAnswerError, ProviderError } from './http';

export { PROVIDER } from './dreamapi-errors';

type Data = Record<string, unknown>;

export interface DreamApiClient {
  /** POSTs JSON to a DreamAPI path and returns the envelope's `data` once `code` is 0. */
  call(path: string, body: unknown, signal: AbortSignal): Promise<Data>;
  /** Puts bytes in DreamAPI storage (get_policy → form POST to its host → policy_upload_finish) and returns the URL. */
  upload(file: { data: Buffer; mime: string; name: string }, signal: AbortSignal): Promise<string>;
}

export function malformed(what: string): ProviderError {
  return new ProviderError(`${PROVIDER} sent a malformed answer: ${what}`);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The envelope's verdict: its data on code 0, else the reason (dreamapi-errors.ts reads the code). */
function unwrap(envelope: Data): Data {
  const { code, message } = envelope;
  if (typeof code !== 'number') throw malformed(`no numeric code in ${JSON.stringify(envelope).slice(0, 120)}`);
  const why = str(message) ?? '(no message)';
  if (code === DREAMAPI_CODES.ok) {
    if (!envelope.data || typeof envelope.data !== 'object') throw malformed('success without data');
    return envelope.data as Data;
  }
  throw dreamApiRefusal(200, envelope, why);
}

/** The storage form's key: the policy's own key when it names one, else its directory plus our file name. */
function formKey(policy: Data, name: string): string {
  const key = str(policy.key) ?? (str(policy.dir) !== undefined ? `${str(policy.dir)}${name}` : undefined);
  if (!key) throw malformed('the upload policy has neither key nor dir');
  return key;
}

function uploadForm(policy: Data, file: { data: Buffer; mime: string; name: string }): FormData {
  const f = DREAMAPI_UPLOAD.fields;
  const accessId = str(policy.accessId) ?? str(policy.OSSAccessKeyId);
  if (!accessId || !str(policy.policy) || !str(policy.signature))
    throw malformed('the upload policy lacks accessId, policy or signature');
  const form = new FormData();
  form.set(f.key, formKey(policy, file.name));
  form.set(f.policy, str(policy.policy)!);
  form.set(f.accessId, accessId);
  form.set(f.signature, str(policy.signature)!);
  if (str(policy.callback)) form.set(f.callback, str(policy.callback)!);
  form.set(f.status, DREAMAPI_UPLOAD.successActionStatus);
  // Storage form uploads read the file last: every field after it is ignored.
  form.set(f.file, new Blob([new Uint8Array(file.data)], { type: file.mime }), file.name);
  return form;
}

/** The storage host answers DreamAPI's callback envelope with the reqId, or nothing; the policy's reqId stands then. */
async function reqIdAfterUpload(res: Response, policy: Data): Promise<string> {
  const text = await res.text();
  let fromHost: string | undefined;
  try {
    const answer = JSON.parse(text) as Data;
    fromHost = str((answer.data as Data | undefined)?.reqId) ?? str(answer.reqId);
  } catch {
    /* an empty or XML body: the policy's reqId is the reference */
  }
  const reqId = fromHost ?? str(policy.reqId);
  if (!reqId) throw malformed('no reqId for the uploaded file');
  return reqId;
}

export function dreamApiClient(c: { key: string; baseUrl: string }): DreamApiClient {
  const base = c.baseUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${c.key}`, 'content-type': 'application/json' };

  async function call(path: string, body: unknown, signal: AbortSignal): Promise<Data> {
    let res: Response;
    try {
      res = await providerFetch({
        provider: PROVIDER,
        url: `${base}${path}`,
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      throw error instanceof ProviderAnswerError ? dreamApiAnswerFailure(error) : error;
    }
    return unwrap(await json(res, PROVIDER));
  }

  async function upload(file: { data: Buffer; mime: string; name: string }, signal: AbortSignal): Promise<string> {
    const policy = await call(DREAMAPI_PATHS.uploadPolicy, { scene: DREAMAPI_UPLOAD.scene }, signal);
    const host = str(policy.host);
    if (!host) throw malformed('the upload policy has no host');
    // The storage host is authorised by the policy's signature; our Bearer key never goes there.
    const res = await providerFetch({
      provider: PROVIDER,
      url: host,
      method: 'POST',
      body: uploadForm(policy, file),
      signal,
      timeoutMs: PROVIDER_RETRY.uploadTimeoutMs,
    });
    const done = await call(DREAMAPI_PATHS.uploadFinish, { reqId: await reqIdAfterUpload(res, policy) }, signal);
    const url = str(done.url);
    if (!url) throw malformed('policy_upload_finish answered no url');
    return url;
  }

  return { call, upload };
}
