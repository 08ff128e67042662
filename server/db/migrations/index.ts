// The ordered list of schema migrations; append new ones here with the next version number, never reorder.
import type { Migration } from './migration.ts';
import * as initial from './001_initial.ts';

export type { Migration } from './migration.ts';

export const migrations: readonly Migration[] = [{ version: 1, name: initial.name, up: initial.up }];
