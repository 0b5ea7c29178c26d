export { GET } from '@/app/v1/jobs/[id]/status/route';
