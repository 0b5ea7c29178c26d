// /v1 itself is no endpoint: the catch-all's answer (that route needs at least one more segment).
export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from './[...path]/route';
