export { POST } from '@/app/v1/jobs/[id]/start/route';
