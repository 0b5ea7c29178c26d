import { DEFAULT_MODEL, isApiModel, type ApiModel } from '../../../engine/api-models';
import type { Job } from '../../db/generated/client';
import type { Background } from '../../schemas/background';
import { backgroundColumn } from './columns';

/** A job's start parameters as stored at start (Job.model, Job.backgroundJson). */
export interface StartedRequest {
  model: ApiModel;
  background: Background | null;
  /**
   * False when something was stored that no longer parses (the job cannot be rendered as asked).
   */
  readable: boolean;
}

/** The one writer: the columns a start stores its request in. */
export function startedRequestColumns(
  model: ApiModel,
  background: Background | null,
): Pick<Job, 'model' | 'backgroundJson'> {
  return { model, backgroundJson: background ? backgroundColumn.write(background) : null };
}

/** The one reader of a job's stored start request. */
export function startedRequest(job: Pick<Job, 'model' | 'backgroundJson'>): StartedRequest {
  const model = job.model && isApiModel(job.model) ? job.model : DEFAULT_MODEL;
  const modelOk = !job.model || isApiModel(job.model);
  if (!job.backgroundJson) return { model, background: null, readable: modelOk };
  const background = backgroundColumn.readOrNull(job.backgroundJson);
  return { model, background, readable: modelOk && background !== null };
}

/**
 * The `export_id` clients see in the status record and in job.completed: the primary output's
 * id, for calls made with a background (spec, "Job status record").
 */
export function exportIdOf(
  request: StartedRequest,
  primaryOutputId: string | null | undefined,
): string | null {
  return request.background && primaryOutputId ? primaryOutputId : null;
}
