// POSTs JSON to an app in this process (Hono's app.request) and answers the status, headers and parsed body.

/** The answer envelope most routes send; a test names its own shape where it reads more. */
export interface Envelope {
  code: number;
  msg: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface Requestable {
  request(path: string, init: RequestInit): Response | Promise<Response>;
}

/** A string body is sent as it is (to test malformed JSON); anything else is serialised. */
export async function postJson<T = Envelope>(
  app: Requestable,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: T }> {
  const res = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}
