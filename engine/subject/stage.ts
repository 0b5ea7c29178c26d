import type { ModelIo } from '../models/io';
import type { InferenceRuntime } from '../runtime';
import { peopleRuntime, type PeopleStage } from './people-model';
import { subjectRuntime, type GeneralStage } from './subject-model';

/**
 * A tier's subject stage: the general one (any subject, over ISNet) or the people one (a person
 * model on a crop).
 */
export type SubjectStage = GeneralStage | PeopleStage;

/** The runtime and model the keys run when a tier has a subject stage over `base`. */
export function stageRuntime(
  runtime: InferenceRuntime,
  base: ModelIo,
  stage: SubjectStage,
): { runtime: InferenceRuntime; manifest: ModelIo } {
  return stage.kind === 'people'
    ? peopleRuntime(runtime, base, stage)
    : subjectRuntime(runtime, base, stage);
}
