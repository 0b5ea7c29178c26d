import { noEndpoint } from '@/lib/http/route';

// /v1 itself is no endpoint (the catch-all below it needs at least one more segment).
export {
  noEndpoint as GET,
  noEndpoint as POST,
  noEndpoint as PUT,
  noEndpoint as PATCH,
  noEndpoint as DELETE,
  noEndpoint as OPTIONS,
};
