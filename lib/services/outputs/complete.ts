import { db } from '../../db/client';
import type { Output } from '../../db/generated/client';
import type { RenderedOutput } from '../../media/render';
import { storage, storageKeys } from '../../storage';

/** Stores a rendered, validated file and its poster, and marks the output completed. */
export async function completeOutput(output: Output, rendered: RenderedOutput): Promise<void> {
  const storageKey = storageKeys.output(output.jobId, output.id, rendered.extension);
  await storage().putFile(storageKey, rendered.file, { move: true });
  let posterKey: string | null = null;
  if (rendered.poster) {
    posterKey = storageKeys.poster(output.jobId, output.id);
    await storage().putFile(posterKey, rendered.poster, { move: true });
  }
  await db().output.updateMany({
    where: { id: output.id, status: 'processing' },
    data: {
      status: 'completed',
      storageKey,
      posterKey,
      metadataJson: JSON.stringify(rendered.metadata),
      error: null,
      completedAt: new Date(),
    },
  });
}

/** Marks outputs taken by a worker, pinning the mask version they render from. */
export async function startOutputs(ids: string[], maskVersion: number): Promise<void> {
  await db().output.updateMany({
    where: { id: { in: ids }, status: { in: ['queued', 'processing'] } },
    data: { status: 'processing', startedAt: new Date(), maskVersion },
  });
}
