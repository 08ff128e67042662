// How the SDK's request types are read off the server's zod schemas: what a caller sends, with defaults left optional.
import type { z } from 'zod';

/** Keys a caller may leave out: optional in the schema's input (absent, or filled in by a default). */
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/**
 * What a caller sends: the schema's parsed values (numbers as numbers, not the strings it would also coerce), with
 * every field the server fills in by default left optional.
 */
export type Body<S extends z.ZodType> = Omit<z.output<S>, OptionalKeys<z.input<S>>> &
  Partial<Pick<z.output<S>, OptionalKeys<z.input<S>> & keyof z.output<S>>>;
