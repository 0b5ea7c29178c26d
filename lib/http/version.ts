/** The spec's API version, sent as X-API-Version on every response. */
export const API_VERSION = '1.6.0';
