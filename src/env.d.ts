// Build-time settings the site reads from PUBLIC_* environment variables (DESIGN.md "The shape").
interface ImportMetaEnv {
  /** Base URL of the API host; empty means the same origin that serves the site. */
  readonly PUBLIC_API_BASE?: string;
  /** External contact page (SPEC.md §1); defaults to /contact-us. */
  readonly PUBLIC_CONTACT_URL?: string;
  /** External support page (SPEC.md §1); defaults to the contact form. */
  readonly PUBLIC_SUPPORT_URL?: string;
  /** Tracking app key the site reports under; defaults to TRACKING_BROWSER.defaultAppKey. */
  readonly PUBLIC_TRACKING_APP_KEY?: string;
  /** Base URL of the tracking collector; empty means the same origin that serves the site. */
  readonly PUBLIC_TRACKING_DOMAIN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
