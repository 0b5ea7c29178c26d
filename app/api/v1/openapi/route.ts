export { GET } from '@/app/v1/openapi/route';
