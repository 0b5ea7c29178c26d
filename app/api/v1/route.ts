export { GET, POST, PUT, PATCH, DELETE } from '@/app/v1/route';
