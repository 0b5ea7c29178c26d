export {
  GET,
  POST,
  PUT,
  PATCH,
  DELETE,
  OPTIONS,
} from '@/app/v1/jobs/[id]/mask-versions/[version]/activate/route';
