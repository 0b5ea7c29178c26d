export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from '@/app/v1/h3/image-to-video/route';
