export { GET, POST, PUT, PATCH, DELETE } from '@/app/v1/refinements/[refinementId]/route';
