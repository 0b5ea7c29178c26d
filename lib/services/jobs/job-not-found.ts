import { ServiceError } from '../../errors';

export const JOB_NOT_FOUND = 'Job not found or does not belong to user';

export function jobNotFound(): ServiceError {
  return new ServiceError('not_found', JOB_NOT_FOUND);
}
