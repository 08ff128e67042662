// A comma-separated environment variable read as a list of its trimmed, non-empty items.
import { z } from 'zod';

export const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
