export { GET } from '@/app/v1/webhooks/deliveries/route';
