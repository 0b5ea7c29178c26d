export {
  api,
  remainingCredits,
  runJobToCompletion,
  settled,
  waitForCompletion,
  waitForJob,
  type ApiResponse,
  type JobStatus,
} from './api';
export { createAccount, createKey, keyout, type TestAccount } from './cli';
export { alphaStats, hasTestdata, talkingOrSynthetic, testVideo, TESTDATA } from './media';
export { cutClip, syntheticClip } from '../../../lib/media/fixtures';
export {
  freePort,
  ROOT,
  stackKind,
  startStack,
  type Stack,
  type StackKind,
  type StackOptions,
} from './stack';
export { enqueued, storedBytes, storedKeys, storedUrlPrefix } from './inspect';
export { waitFor } from './wait';
export { roomInWindow, stackDb } from './db';
export {
  completedJob,
  createJob,
  postMultipartJob,
  putUpload,
  refusedLongSource,
  refusedUpload,
  startComposition,
  uploadedJob,
  type Receipt,
} from './jobs';
export { grayFrames, maskVersionFile, meanJ, writeInvertedMaskVersion } from './masks';
