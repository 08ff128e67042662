// Fixed local ports for the SMTP server and identity providers the account specs start, and the server env pointing at
// them.

/**
 * The e2e server's port (E2E_PORT, default 8797): the config starts the server there, specs derive their fakes' ports
 * from it.
 */
export const E2E_APP_PORT = Number(process.env.E2E_PORT || 8797);

export function accountPorts(appPort: number) {
  // Offsets from the app port, so parallel runs on different E2E_PORTs never share them.
  return { smtp: appPort + 1000, google: appPort + 1001, github: appPort + 1002 };
}

export function accountsServerEnv(appPort: number): Record<string, string> {
  const ports = accountPorts(appPort);
  const google = `http://127.0.0.1:${ports.google}`;
  const github = `http://127.0.0.1:${ports.github}`;
  return {
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    MAIL_FROM: 'DreamAPI <no-reply@dreamapi.test>',
    GOOGLE_CLIENT_ID: 'google-client',
    GOOGLE_CLIENT_SECRET: 'google-secret',
    GOOGLE_ISSUER: google,
    GOOGLE_AUTHORIZATION_ENDPOINT: `${google}/authorize`,
    GOOGLE_TOKEN_ENDPOINT: `${google}/token`,
    GITHUB_CLIENT_ID: 'github-client',
    GITHUB_CLIENT_SECRET: 'github-secret',
    GITHUB_AUTHORIZATION_ENDPOINT: `${github}/authorize`,
    GITHUB_TOKEN_ENDPOINT: `${github}/token`,
    GITHUB_API_URL: github,
  };
}
