export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from '@/app/v1/jobs/[id]/batch-exports/route';
