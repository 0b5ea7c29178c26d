/**
 * Chromium's flags for a closed network: without them Debian's Chromium floods it with requests
 * (WORKPLACE.md, docs/dashboard.md). Every harness that starts one (e2e, the browser-engine
 * tests, the studio benches) passes these.
 */
export const QUIET_CHROMIUM = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
