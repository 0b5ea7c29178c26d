export { POST } from '@/app/v1/jobs/route';
