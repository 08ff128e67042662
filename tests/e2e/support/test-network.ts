// Each signed-in e2e test asks for its code from an address of its own: the run's e2e server trusts loopback as its
// proxy (TRUST_PROXY), so X-Forwarded-For names the client, and the product's per-network hourly cap on codes
// (LOGIN_CODES.perIpPerHour) bounds one test, not the whole suite. Specs that test the caps send no such header.
import { randomInt } from 'node:crypto';

/** A fresh private (10.0.0.0/8) address as the client's network. */
export function testNetwork(): Record<string, string> {
  return { 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` };
}
