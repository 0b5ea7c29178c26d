export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from '@/app/v1/batches/[batchId]/route';
