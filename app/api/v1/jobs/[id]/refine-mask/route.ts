export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from '@/app/v1/jobs/[id]/refine-mask/route';
