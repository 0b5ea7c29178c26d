import { noEndpoint } from '@/lib/http/route';

// Any path under /v1 that no route above matches.
export {
  noEndpoint as GET,
  noEndpoint as POST,
  noEndpoint as PUT,
  noEndpoint as PATCH,
  noEndpoint as DELETE,
  noEndpoint as OPTIONS,
};
