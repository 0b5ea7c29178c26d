export { GET } from '@/app/v1/credits/route';
