// The SDK's operations are the OpenAPI document's, it has a method for each, and it refuses bad options and says when
// no answer came.
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../api-contract';
import { createDreamApiClient, OPERATIONS } from './client';

const baseUrl = 'http://localhost:8787';

describe('the SDK and the OpenAPI document', () => {
  it('has one entry per documented operation, with the same method and path', () => {
    const documented = Object.fromEntries(
      Object.entries(buildOpenApiDocument().paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => [op.operationId, { method, path }]),
      ),
    );
    expect(OPERATIONS).toEqual(documented);
  });

  it('has a method for every operation', () => {
    const client = createDreamApiClient({ apiKey: 'k', baseUrl });
    for (const id of Object.keys(OPERATIONS))
      expect(typeof (client as Record<string, unknown>)[id], id).toBe('function');
  });
});

describe('errors', () => {
  it('says when the request did not reach the API, and refuses bad options', async () => {
    const offline = createDreamApiClient({
      apiKey: 'k',
      baseUrl,
      fetch: () => Promise.reject(new Error('connect ECONNREFUSED')),
    });
    await expect(offline.remainingCredits()).rejects.toMatchObject({
      code: null,
      status: 0,
      message: expect.stringContaining('ECONNREFUSED') as string,
    });
    expect(() => createDreamApiClient({ apiKey: '', baseUrl })).toThrow('apiKey');
    expect(() => createDreamApiClient({ apiKey: 'k', baseUrl: 'not a url' })).toThrow('baseUrl');
  });
});
