// The reference's examples look like real answers: every taskId in the format the server issues (a UUID).
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../api-contract';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function taskIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(taskIds);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'taskId' && typeof v === 'string' ? [v] : taskIds(v)));
}

describe('reference examples', () => {
  it('every example taskId is a UUID, as crypto.randomUUID makes them for tasks', () => {
    const ids = OPERATIONS.flatMap((op) => [...taskIds(op.request?.example), ...taskIds(op.response.example)]);
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) expect(id).toMatch(UUID);
  });
});
