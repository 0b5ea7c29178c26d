/**
 * Thrown by a handler when trying again cannot help (the input is wrong, the user's URL is
 * refused, the job is gone). The message is shown to the user where the job has a message.
 */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}
