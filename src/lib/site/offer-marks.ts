// Every page's refinements from the server's offer answer, loaded beside the page by the layout: the marks of what this
// server does not serve, the pricing table's free-here notes, Buy disabled while payments are off, and the landing's
// headline (each a no-op where its elements are absent).
import { markFeatures } from './features-marks';
import { markHeadline } from './offer-headline';
import { markPaymentsOff } from './payments-marks';
import { markPriceNotes } from './price-notes';

export function markOffer(): void {
  markFeatures();
  markPriceNotes();
  markPaymentsOff();
  markHeadline();
}
