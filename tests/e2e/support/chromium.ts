// The system Chromium every browser run launches (end-to-end tests, screenshots, benches) and the flags it runs with:
// headless, no sandbox or GPU, none of its background network, update or sync traffic.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
