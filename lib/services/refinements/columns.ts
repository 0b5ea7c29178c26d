import { z } from 'zod';
import {
  COCO_CLASSES,
  PERSON_PARTS,
  type Concept,
  type PersonPart,
} from '../../../engine/prompts/concepts';
import { jsonColumn } from '../../db/json-column';

/**
 * The Refinement's JSON columns, one codec each: what each holds, parsed on every read and
 * written through the same codec (lib/db/json-column.ts).
 */

const PART_NAMES = Object.keys(PERSON_PARTS) as [PersonPart, ...PersonPart[]];

const StoredConcept = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('object'), name: z.enum(COCO_CLASSES), classIndex: z.number() }),
  z.object({ kind: z.literal('part'), name: z.enum(PART_NAMES), channel: z.number() }),
  z.object({ kind: z.literal('open'), name: z.string() }),
]) satisfies z.ZodType<Concept>;

/**
 * Refinement.promptJson: the prompt as stored with the refinement (written by requestRefinement),
 * with what the worker needs: the concepts a text names, or the clicked frame.
 */
export const promptColumn = jsonColumn(
  'Refinement.promptJson',
  z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('text'), text: z.string(), concepts: z.array(StoredConcept) }),
    z.object({
      mode: z.literal('points'),
      time: z.number(),
      frame: z.number(),
      points: z.array(z.object({ x: z.number(), y: z.number(), include: z.boolean() })),
    }),
  ]),
);
export type StoredPrompt = ReturnType<typeof promptColumn.read>;

/**
 * Refinement.statsJson: what a completed refinement took (seconds, per stage), and beside them its
 * counts.
 */
export const statsColumn = jsonColumn(
  'Refinement.statsJson',
  z.looseObject({ seconds: z.number(), stages: z.record(z.string(), z.number()) }),
);
