'use client';

import { useActionState, useState } from 'react';
import { addExportsAction, type AddBatchState } from '@/app/(dashboard)/jobs/[id]/batch-actions';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import { ChoiceSelect, Field, inputClass } from '@/components/ui/field';
import { formatBytes } from '@/components/format';
import type { ExportRecord } from '@/lib/schemas/exports';
import { DEFAULT_FORMAT, outputFormat, type FormatId } from '@/engine/formats';
import { TRANSPARENT_FORMATS } from './job-options';
import { AddOutputs, OutputsPanel } from './outputs-panel';

const label = (format: string) =>
  TRANSPARENT_FORMATS.find((f) => f.id === format)?.label.split(' — ')[0] ?? format;

function state(e: ExportRecord): { text: string; tone: BadgeTone } {
  if (e.status === 'completed') return { text: 'Ready', tone: 'green' };
  if (e.status === 'failed') return { text: 'Failed', tone: 'red' };
  return e.started_at ? { text: 'Rendering', tone: 'amber' } : { text: 'Queued', tone: 'slate' };
}

function size(e: ExportRecord): string {
  if (e.metadata) return `${e.metadata.width}×${e.metadata.height}`;
  const t = e.transform as { max_width?: number } | null;
  return t?.max_width ? `≤ ${t.max_width} px wide` : 'original size';
}

/**
 * The job's exports (start-time extras and those added later) with their status, size and
 * download, and a form that adds more without leaving the page. Polls while any is unfinished.
 */
export function ExportsPanel({
  jobId,
  exports,
  maskVersions,
}: {
  jobId: string;
  exports: ExportRecord[];
  maskVersions: number[];
}) {
  const [result, add, pending] = useActionState<AddBatchState, FormData>(
    addExportsAction.bind(null, jobId),
    null,
  );
  const [format, setFormat] = useState<FormatId>(DEFAULT_FORMAT);
  // Fixed layouts (masks, bundles, WebP) come at the original size only (spec, start `exports` rule
  // 4).
  const nativeOnly = outputFormat(format).nativeOnly;
  return (
    <OutputsPanel
      title="Exports"
      description={
        "Other formats and sizes from this job's original and mask. " +
        'Exports are free: the segmentation was paid when the job ' +
        'started.'
      }
      outputs={exports}
    >
      {exports.length ? (
        <ul className="mb-5 divide-y divide-slate-100" aria-label="Exports">
          {exports.map((e) => {
            const s = state(e);
            return (
              <li
                key={e.export_id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
              >
                <div className="min-w-0 flex-1 basis-48">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    {label(e.format)} <Badge tone={s.tone}>{s.text}</Badge>
                  </p>
                  <p className="text-xs text-slate-500">
                    {size(e)}
                    {e.metadata ? ` · ${formatBytes(e.metadata.bytes)}` : ''}
                    {e.mask_version ? ` · mask version ${e.mask_version}` : ''}
                  </p>
                  {e.error ? <p className="mt-1 text-xs text-rose-700">{e.error}</p> : null}
                </div>
                {e.output_url ? (
                  <a href={e.output_url} className={buttonClass('secondary', 'sm')}>
                    Download
                    <span className="sr-only">
                      {' '}
                      {label(e.format)} {size(e)}
                    </span>
                  </a>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      <form action={add} className="grid gap-4 sm:grid-cols-2">
        <Field id="export-format" label="Format">
          <ChoiceSelect
            id="export-format"
            name="format"
            value={format}
            onChange={(e) => setFormat(e.target.value as FormatId)}
            choices={TRANSPARENT_FORMATS}
          />
        </Field>
        <Field
          id="export-widths"
          label="Widths (optional)"
          hint={
            nativeOnly
              ? 'This format keeps the original size.'
              : 'Pixels, separated by commas, e.g. 1280, 640. Each makes one file.'
          }
        >
          <input
            id="export-widths"
            name="widths"
            inputMode="numeric"
            placeholder="1280, 640"
            disabled={nativeOnly}
            className={inputClass}
          />
        </Field>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          {nativeOnly ? (
            <>
              <input type="hidden" name="native" value="on" />
              <input
                type="checkbox"
                checked
                disabled
                readOnly
                className="h-4 w-4 rounded border-slate-300"
              />
            </>
          ) : (
            <input
              type="checkbox"
              name="native"
              defaultChecked
              className="h-4 w-4 rounded border-slate-300"
            />
          )}{' '}
          Original size
        </label>
        {maskVersions.length > 1 ? (
          <Field id="export-mask" label="Mask version">
            <select id="export-mask" name="mask_version" className={inputClass} defaultValue="">
              <option value="">The active one</option>
              {maskVersions.map((v) => (
                <option key={v} value={v}>
                  Version {v}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <AddOutputs
          label="Add export"
          pending={pending}
          result={result}
          className={{ button: 'sm:col-span-2', outcome: 'sm:col-span-2' }}
          added={(n) =>
            `${n === 1 ? 'One export added.' : `${n} exports added.`} They ` +
            'appear above as they render.'
          }
        />
      </form>
    </OutputsPanel>
  );
}
