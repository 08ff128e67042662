// The type of a request body as a client writes it, read off the zod schema the server validates it with (type only).
import type { z } from 'zod';

/** Keys a caller may leave out: optional in the schema's input (absent, or filled in by a default). */
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/** A list field takes a read-only list too: the body is only read. */
type ReadonlyLists<V> = V extends (infer E)[] ? readonly E[] : V;
type Sendable<T> = { [K in keyof T]: ReadonlyLists<T[K]> };

/**
 * What a caller sends: the schema's parsed values (numbers as numbers, not the strings it would also coerce), with
 * every field the server fills in by default left optional.
 */
export type RequestBody<S extends z.ZodType> = Sendable<
  Omit<z.output<S>, OptionalKeys<z.input<S>>> & Partial<Pick<z.output<S>, OptionalKeys<z.input<S>> & keyof z.output<S>>>
>;
