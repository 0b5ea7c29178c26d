export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from '@/app/v1/webhooks/deliveries/route';
