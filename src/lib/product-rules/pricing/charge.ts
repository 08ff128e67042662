// What the server charges for one price-table item (SPEC.md §9 "Credit prices"), and its text for people.

/** How an item is charged. Every unit-based charge rounds the measured amount up to whole units. */
export type Charge =
  /** A fixed number of credits per item or per task. */
  | { kind: 'flat'; credits: number }
  /** Credits per started second. */
  | { kind: 'perSecond'; credits: number }
  /** Credits per started block of `characters` characters. */
  | { kind: 'perCharacters'; credits: number; characters: number }
  /** Credits per started minute. */
  | { kind: 'perMinute'; credits: number }
  /** No charge. */
  | { kind: 'free' };

export type ChargeKind = Charge['kind'];

function credits(n: number): string {
  return n === 1 ? '1 credit' : `${n} credits`;
}

/** The price text a pricing page shows for a charge, e.g. '1 credit per 250 characters'. */
export function formatCharge(charge: Charge): string {
  switch (charge.kind) {
    case 'flat':
      return `${credits(charge.credits)} each`;
    case 'perSecond':
      return `${credits(charge.credits)} per second`;
    case 'perCharacters':
      return `${credits(charge.credits)} per ${charge.characters} characters`;
    case 'perMinute':
      return `${credits(charge.credits)} per minute`;
    case 'free':
      return 'Free';
  }
}
