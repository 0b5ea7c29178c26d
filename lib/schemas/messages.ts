/**
 * Validation messages written for API users. The error mapper shows these verbatim as the
 * `error` of a 400 (the spec fixes some, e.g. the background colour one); other schema
 * failures get the field's path in front of zod's message.
 */
const userMessages = new Set<string>();

export function userMessage(text: string): string {
  userMessages.add(text);
  return text;
}

export function isUserMessage(text: string): boolean {
  return userMessages.has(text);
}
