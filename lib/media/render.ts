import fs from 'node:fs/promises';
import path from 'node:path';
import { outputKind, recipeLabel } from '../../engine/media/output-formats';
import type { OutputMetadata } from '../../engine/media/output-metadata';
import type { Recipe } from '../../engine/media/recipe';
import { planRender, RenderPlanError, type RenderPlan } from '../../engine/media/render-plan';
import type { MediaInfo } from '../../engine/media/types';
import { probeBackground } from './background';
import { canEncodeHevcAlpha, HEVC_ALPHA_UNAVAILABLE } from './capabilities';
import { env } from '../env';
import { MediaError } from './ffmpeg';
import { countFrames } from './frames';
import { runEncode } from './run-ffmpeg';
import { validateOutput } from './validate';
import { writeZip } from './zip';

export type { OutputMetadata } from '../../engine/media/output-metadata';

export interface RenderedOutput {
  file: string;
  extension: string;
  contentType: string;
  metadata: OutputMetadata;
}

/**
 * Renders "original + mask + recipe" into outDir and validates the file before returning it.
 * Throws MediaError with a user-facing reason; nothing that fails validation is left behind.
 */
export async function renderOutput(opts: {
  source: string;
  info: MediaInfo;
  mask: string;
  recipe: Recipe;
  outDir: string;
  basename?: string;
  signal?: AbortSignal;
  onProgress?: (framesDone: number) => void;
}): Promise<RenderedOutput> {
  const { recipe, signal } = opts;
  const kind = outputKind(recipe);
  const label = recipeLabel(recipe);
  if (recipe.kind === 'transparent' && recipe.format === 'hevc_alpha' && !(await canEncodeHevcAlpha())) {
    throw new MediaError(HEVC_ALPHA_UNAVAILABLE);
  }
  const maskFrames = await countFrames(opts.mask, 'matroska', signal);
  const background = recipe.kind === 'composition' ? await probeBackground(recipe.backgroundFile, signal) : undefined;
  await fs.mkdir(opts.outDir, { recursive: true });
  const file = path.join(opts.outDir, `${opts.basename ?? label}.${kind.extension}`);
  const workDir = await fs.mkdtemp(path.join(opts.outDir, `.${label}-work-`));
  try {
    let plan: RenderPlan;
    try {
      plan = planRender({
        recipe,
        info: opts.info,
        source: opts.source,
        mask: opts.mask,
        maskFrames,
        maxPixels: env().MAX_FRAME_PIXELS,
        background,
        output: file,
        workDir,
      });
    } catch (e) {
      if (e instanceof RenderPlanError) throw new MediaError(e.message);
      throw e;
    }
    if (plan.zip?.directory) await fs.mkdir(plan.zip.directory, { recursive: true });
    const last = plan.steps.length - 1;
    for (const [i, args] of plan.steps.entries()) {
      await runEncode(args, {
        what: `the ${label} output`,
        signal,
        onProgress: i === last ? opts.onProgress : undefined,
      });
    }
    if (plan.zip) await writeZip(file, plan.zip);
    const metadata = await validateOutput({ file, plan, mask: opts.mask, signal });
    return { file, extension: kind.extension, contentType: kind.contentType, metadata };
  } catch (e) {
    await fs.rm(file, { force: true });
    throw e;
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}
