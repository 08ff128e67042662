// Test-only: the databases an app-level test runs on: SQLite always, PostgreSQL as well when TEST_DATABASE_URL is set.
export const APP_DATABASES: ReadonlyArray<{ label: string; postgres: boolean }> = [
  { label: 'sqlite', postgres: false },
  ...(process.env.TEST_DATABASE_URL ? [{ label: 'postgres', postgres: true }] : []),
];
