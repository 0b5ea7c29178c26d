'use client';

import { useActionState } from 'react';
import { addStickersAction, type AddBatchState } from '@/app/(dashboard)/jobs/[id]/batch-actions';
import { Badge } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import {
  BudgetMeter,
  StickerChatPreview,
  StickerChoices,
  stickerOf,
} from '@/components/media/sticker-view';
import type { ExportRecord } from '@/lib/schemas/exports';
import { AddOutputs, OutputsPanel } from './outputs-panel';

function StickerCard({ e }: { e: ExportRecord }) {
  const f = stickerOf(e.format)!;
  const m = e.metadata;
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3">
      <div className="flex items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{f.label.split(' (')[0]}</p>
          {/* Discord has two: the format id tells the APNG from the GIF. */}
          <p className="font-mono text-xs text-slate-500">{f.id}</p>
        </div>
        {e.status === 'completed' ? (
          <Badge tone="green">Fits</Badge>
        ) : e.status === 'failed' ? (
          <Badge tone="red">Failed</Badge>
        ) : (
          <Badge tone="amber">Encoding</Badge>
        )}
      </div>
      {e.status === 'completed' && e.output_url && m ? (
        <>
          <StickerChatPreview format={e.format} url={e.output_url} />
          {m.sticker ? <BudgetMeter bytes={m.bytes} budget={m.sticker.budget_bytes} /> : null}
          <p className="text-xs text-slate-500">
            {m.width}×{m.height} · {Math.round(m.duration_seconds * 10) / 10} s ·{' '}
            {m.sticker?.final_fps ?? m.fps} fps
            {m.sticker
              ? ' · ' +
                (m.sticker.attempts.length === 1
                  ? 'first attempt'
                  : `${m.sticker.attempts.length} attempts`)
              : ''}
            {m.sticker && m.sticker.speed_up > 1 ? ` · sped up ${m.sticker.speed_up}×` : ''}
          </p>
          <a href={e.output_url} download className={buttonClass('secondary', 'sm')}>
            Download<span className="sr-only"> the {f.label} file</span>
          </a>
        </>
      ) : null}
      {e.status === 'failed' ? <p className="text-xs text-rose-700">{e.error}</p> : null}
      {e.status === 'queued' ? (
        <p className="text-xs text-slate-500">
          Trying smaller settings until the file fits {f.sticker.platform}&apos;s limit…
        </p>
      ) : null}
    </li>
  );
}

/**
 * A completed job's chat stickers: pick platforms, see each result as a chat would show it with
 * its size against the platform's budget, download one, or all of them as a ZIP.
 */
export function StickersPanel({ jobId, stickers }: { jobId: string; stickers: ExportRecord[] }) {
  const [result, add, pending] = useActionState<AddBatchState, FormData>(
    addStickersAction.bind(null, jobId),
    null,
  );
  const ready = stickers.some((e) => e.status === 'completed');
  return (
    <OutputsPanel
      title="Stickers"
      description={
        'Animated stickers sized for each chat app: every file fits the ' +
        "platform's limit with 10 % to spare. Free, like every export."
      }
      outputs={stickers}
    >
      {stickers.length ? (
        <ul className="mb-5 grid gap-4 sm:grid-cols-2" aria-label="Stickers">
          {stickers.map((e) => (
            <StickerCard key={e.export_id} e={e} />
          ))}
        </ul>
      ) : null}
      {ready ? (
        <a
          href={`/jobs/${jobId}/stickers.zip`}
          className={`${buttonClass('secondary', 'sm')} mb-5`}
        >
          Download all stickers (ZIP)
        </a>
      ) : null}
      <form action={add}>
        <StickerChoices />
        <AddOutputs
          label="Make stickers"
          pending={pending}
          result={result}
          className={{ button: 'mt-4', outcome: 'mt-3' }}
          added={(n) =>
            `${n === 1 ? 'One sticker is being made.' : `${n} stickers are being made.`} ` +
            'They appear above when they fit.'
          }
        />
      </form>
    </OutputsPanel>
  );
}
