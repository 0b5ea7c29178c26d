import { expect } from 'vitest';
import { ServiceError } from '../../lib/errors';

/**
 * The ServiceError a use case's promise rejects with (the test fails if it resolves or throws
 * another).
 */
export async function refusal(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
}
