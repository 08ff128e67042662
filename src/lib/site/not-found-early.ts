// The not-found notice's inline script, right after its markup on /playground: it shows the notice in the first paint
// when the 404 page sent the visitor here, so the page below it never moves down (a layout shift of a tenth of the
// screen). astro.config.mjs hashes this text into the CSP, since Astro hashes only the scripts it bundles.
import { NOT_FOUND } from '../product-rules';

const [before, after] = NOT_FOUND.notice('\u0000').split('\u0000');

/**
 * Said once (the path is taken from sessionStorage): a reload or a later visit shows no notice; blocked storage shows
 * none.
 */
export const NOT_FOUND_EARLY_SCRIPT = `(n=>{try{let k=${JSON.stringify(NOT_FOUND.storageKey)},p=sessionStorage.getItem(k);if(p){sessionStorage.removeItem(k);n.textContent=${JSON.stringify(before)}+p+${JSON.stringify(after)};n.hidden=false}}catch(e){}})(document.currentScript.previousElementSibling)`;
