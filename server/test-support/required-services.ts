// Test-only: a test that needs PostgreSQL or Redis skips without it on a laptop, and fails in CI, where .ci/run
// requires them.
/**
 * The skip reason to use, or null when the service answers. With REQUIRE_TEST_SERVICES set (CI sets it), a missing
 * service throws instead, so the test file fails rather than passing quietly without its database tests.
 */
export function skipUnlessRequired(reason: string | null): string | null {
  if (reason !== null && process.env.REQUIRE_TEST_SERVICES) {
    throw new Error(`${reason}; REQUIRE_TEST_SERVICES is set (CI), so this test fails instead of skipping`);
  }
  return reason;
}
