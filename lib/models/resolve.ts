import fs from 'node:fs';
import path from 'node:path';
import { env } from '../env';

/**
 * Absolute path of a prepared model file in MODELS_DIR. Throws a clear error when it is missing
 * (nothing is ever downloaded at request time) or when the name is not a plain file name.
 */
export function modelFilePath(file: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(file))
    throw new Error(`Invalid model file name "${file}"`);
  const full = path.join(env().modelsDir, file);
  if (!fs.existsSync(full)) {
    throw new Error(
      `Model file ${file} is not prepared in MODELS_DIR ` +
        `(${env().modelsDir}). Run \`npm run setup\` (it fetches and ` +
        'checksums the models) and try again.',
    );
  }
  return full;
}
