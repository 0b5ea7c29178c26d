import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  openVocabulary,
  type OpenVocabulary,
  type OpenVocabularyManifest,
} from '../../engine/prompts/open-vocabulary';
import { env } from '../env';

/**
 * The open-vocabulary slot's manifest, `MODELS_DIR/open-vocabulary.json` (the contract is in
 * engine/prompts/open-vocabulary.ts and docs/engine.md). Absent: text prompts name the built-in
 * concepts only. Present but invalid: text refinements are refused with a server error whose
 * logged reason names the mistake, rather than quietly understanding fewer words.
 */
export const OPEN_VOCABULARY_MANIFEST = 'open-vocabulary.json';

const fileName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a plain file name in MODELS_DIR');
const tokenId = z.number().int().min(0);
const triple = z.tuple([z.number(), z.number(), z.number()]);
const manifestSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  file: fileName.refine((f) => f.endsWith('.onnx'), 'an .onnx file'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  license: z.string().min(1),
  image: z.object({
    size: z.number().int().min(32).max(2048),
    mean: triple,
    std: triple.refine((s) => s.every((v) => v > 0), 'positive'),
  }),
  text: z.object({
    vocabulary: fileName,
    maxTokens: z.number().int().min(2).max(512),
    bos: tokenId.optional(),
    eos: tokenId.optional(),
    pad: tokenId,
  }),
  output: z.enum(['logits', 'probability']),
}) satisfies z.ZodType<OpenVocabularyManifest>;

let cached: { stamp: string; model: OpenVocabulary } | null = null;

const stampOf = (...files: string[]) =>
  files.map((f) => `${f}:${fs.statSync(f).mtimeMs}:${fs.statSync(f).size}`).join('|');

/**
 * The configured open-vocabulary model with its vocabulary, or null when there is none (read again
 * when the files change).
 */
export function openVocabularyModel(): OpenVocabulary | null {
  const dir = env().modelsDir;
  const file = path.join(dir, OPEN_VOCABULARY_MANIFEST);
  if (!fs.existsSync(file)) return null;
  const parsed = manifestSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `The open-vocabulary manifest ${file} is invalid: ` +
        `${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const vocabulary = path.join(dir, parsed.data.text.vocabulary);
  if (!fs.existsSync(vocabulary))
    throw new Error(`The open-vocabulary model's vocabulary ${vocabulary} is missing`);
  const stamp = stampOf(file, vocabulary);
  if (cached?.stamp !== stamp)
    cached = { stamp, model: openVocabulary(parsed.data, fs.readFileSync(vocabulary, 'utf8')) };
  return cached.model;
}

const checked = new Set<string>();

/**
 * As `openVocabularyModel`, with the model file checked against its sha256 (once per file version):
 * for the worker, before it loads it.
 */
export function verifiedOpenVocabularyModel(): OpenVocabulary | null {
  const model = openVocabularyModel();
  if (!model) return null;
  const file = path.join(env().modelsDir, model.manifest.file);
  if (!fs.existsSync(file)) throw new Error(`The open-vocabulary model ${file} is missing`);
  const stamp = `${stampOf(file)}:${model.manifest.sha256}`;
  if (!checked.has(stamp)) {
    const sum = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    if (sum !== model.manifest.sha256)
      throw new Error(
        `The open-vocabulary model ${file} has sha256 ${sum}, not the ` +
          `manifest's ${model.manifest.sha256}`,
      );
    checked.add(stamp);
  }
  return model;
}
