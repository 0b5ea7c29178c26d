export { DELETE } from '@/app/v1/jobs/[id]/route';
