// The page's one inline script, right after the cookie banner's markup: it shows the banner, whole and in the first
// paint, to a visitor who has not chosen (no late paint for Lighthouse's LCP, no growing box to shift), and leaves it
// hidden for one who has. astro.config.mjs hashes this text into the CSP, since Astro hashes only the scripts it
// bundles.
import { STORAGE_KEYS } from '../product-rules';

/** SPEC.md §3 `cookie-accpet`; blocked storage shows the banner, as no stored choice does. */
export const CONSENT_EARLY_SCRIPT = `(function(b){try{if(localStorage.getItem(${JSON.stringify(STORAGE_KEYS.cookieAccept)}))return}catch(e){}b.hidden=false})(document.currentScript.previousElementSibling)`;
