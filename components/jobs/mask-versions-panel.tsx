'use client';

import { useActionState, useTransition } from 'react';
import {
  activateAction,
  refineAction,
  type RefineState,
} from '@/app/(dashboard)/jobs/[id]/refine-actions';
import { describePrompt } from '@/engine/prompts/describe-prompt';
import { AutoRefresh } from '@/components/jobs/auto-refresh';
import { ClickRefine, type ClickSource } from '@/components/jobs/click-refine';
import {
  RefineOptions,
  RefineSubmit,
  type RefineModelChoice,
} from '@/components/jobs/refine-options';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Field, inputClass } from '@/components/ui/field';
import type { MaskVersionList, RefinementRecord } from '@/lib/schemas/refinements';

type Version = MaskVersionList['versions'][number];

const TONES: Record<Version['status'], BadgeTone> = {
  queued: 'slate',
  processing: 'amber',
  completed: 'green',
  failed: 'red',
};

function describe(v: Version, r: RefinementRecord | undefined): string {
  if (!r) return 'Segmentation';
  return (
    `${r.op === 'add' ? 'Add' : 'Subtract'} ` +
    `${describePrompt(r.prompt)} from version ${r.from_version} · ` +
    `${r.model} · ${r.credits_used} ` +
    `credit${r.credits_used === 1 ? '' : 's'}`
  );
}

/**
 * The job's mask versions (the segmentation and each refinement) with the active one marked,
 * a "Make active" switch for the others, and two ways to refine the active mask through the
 * refine-mask service: a text prompt, or points clicked on a frame with an instant preview
 * (click-refine.tsx). Polls while a refinement runs. Any completed version can be exported
 * from the Exports panel.
 */
export function MaskVersionsPanel({
  jobId,
  versions,
  refinements,
  models,
  source,
}: {
  jobId: string;
  versions: MaskVersionList;
  refinements: RefinementRecord[];
  /** The models that refine masks, with what a refinement of this video costs. */
  models: RefineModelChoice[];
  /** The original, for clicking on its frames (null: not playable here). */
  source: ClickSource | null;
}) {
  const [result, refine, pending] = useActionState<RefineState, FormData>(
    refineAction.bind(null, jobId),
    null,
  );
  const [switching, startSwitch] = useTransition();
  const running = refinements.some((r) => r.status === 'queued' || r.status === 'processing');
  const byVersion = new Map(refinements.map((r) => [r.version, r]));
  return (
    <Card>
      <CardTitle
        description={
          'Each refinement writes a new version of the mask; the active ' +
          'one is what exports use unless they name another.'
        }
      >
        Mask versions
      </CardTitle>
      <AutoRefresh active={running} />
      <ul className="mb-5 divide-y divide-slate-100" aria-label="Mask versions">
        {versions.versions.map((v) => {
          const r = byVersion.get(v.version);
          return (
            <li key={v.version} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0 flex-1 basis-48">
                <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                  Version {v.version}
                  {v.active ? <Badge tone="violet">Active</Badge> : null}
                  {v.status !== 'completed' ? (
                    <Badge tone={TONES[v.status]}>
                      {v.status === 'queued'
                        ? 'Queued'
                        : v.status === 'processing'
                          ? 'Refining'
                          : 'Failed'}
                    </Badge>
                  ) : null}
                </p>
                <p className="text-xs text-slate-500">{describe(v, r)}</p>
                {r?.error ? (
                  <p className="mt-1 text-xs text-rose-700">{r.error} (refunded)</p>
                ) : null}
              </div>
              {v.status === 'completed' && !v.active ? (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={switching || running}
                  onClick={() =>
                    startSwitch(async () => void (await activateAction(jobId, v.version)))
                  }
                >
                  Make active<span className="sr-only"> version {v.version}</span>
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <h3 className="mb-3 text-base font-semibold text-slate-900">
        Describe what to add or take out
      </h3>
      <form
        action={refine}
        aria-label="Refine by a description"
        className="grid gap-4 sm:grid-cols-2"
      >
        <input type="hidden" name="from_version" value={versions.active_version ?? ''} />
        <div className="sm:col-span-2">
          <Field
            id="refine-prompt"
            label="Refine the active mask"
            hint={
              'Name what to add or take out: "the dog", "the rider and the ' +
              'horse", "hair". People, hair, skin, clothes and 80 everyday ' +
              'objects are understood.'
            }
          >
            <input
              id="refine-prompt"
              name="prompt"
              required
              maxLength={500}
              placeholder="the dog"
              className={inputClass}
            />
          </Field>
        </div>
        <RefineOptions idPrefix="refine" models={models} />
        <RefineSubmit label="Refine" ready pending={pending} running={running} result={result} />
      </form>
      {source ? (
        <section
          aria-labelledby="click-refine-title"
          className="mt-8 border-t border-slate-100 pt-6"
        >
          <h3 id="click-refine-title" className="mb-3 text-base font-semibold text-slate-900">
            Or click on it
          </h3>
          <ClickRefine
            jobId={jobId}
            source={source}
            activeVersion={versions.active_version}
            running={running}
            models={models}
          />
        </section>
      ) : null}
    </Card>
  );
}
