// Column shapes every table shares, chosen so values read the same on SQLite and PostgreSQL.

// Every timestamp is integer epoch milliseconds (bigint on PostgreSQL, read back as a JS number by the
// int8 type parser set up in connect.ts), so comparisons and arithmetic are the same on both engines.
export type EpochMs = number;

// Flags are stored as integer 0/1 rather than boolean: better-sqlite3 cannot bind JS booleans and
// PostgreSQL would hand back true/false, so 0/1 is the only shape that reads the same on both engines.
export type Flag = 0 | 1;
