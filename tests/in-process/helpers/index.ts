// The integration tier's helpers, with the in-process stack and account commands in place of
// real servers and CLI processes.
export * from '../../integration/helpers';
export { startStack } from './stack';
export { createAccount, createKey } from './cli';
