'use client';

import { useActionState } from 'react';
import { addStickersAction, type AddStickersState } from '@/app/(dashboard)/jobs/[id]/sticker-actions';
import { AutoRefresh } from '@/components/jobs/auto-refresh';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { formatBytes } from '@/components/format';
import { OUTPUT_FORMATS, type OutputFormat } from '@/engine/formats';
import type { ExportRecord } from '@/lib/schemas/exports';

/** The sticker formats, in catalogue order: each platform's policy is in engine/formats. */
const STICKERS = OUTPUT_FORMATS.filter((f): f is (typeof OUTPUT_FORMATS)[number] & { sticker: NonNullable<OutputFormat['sticker']> } => f.family === 'sticker');

const stickerOf = (format: string) => STICKERS.find((f) => f.id === format);

/** How big the sticker shows in a chat: the canvas, at most 160 CSS pixels (emoji are small). */
const shownSize = (canvas: number) => Math.min(160, canvas);

function ChatPreview({ e }: { e: ExportRecord }) {
  const f = stickerOf(e.format)!;
  const size = shownSize(f.sticker.canvas.width);
  const media =
    f.sticker.codec.codec === 'vp9' ? (
      <video src={e.output_url} autoPlay loop muted playsInline width={size} height={size} aria-label={`${f.sticker.platform} sticker`} />
    ) : (
      // eslint-disable-next-line @next/next/no-img-element -- signed URL of an animation
      <img src={e.output_url} width={size} height={size} alt={`${f.sticker.platform} sticker`} />
    );
  return (
    <div className="rounded-xl bg-[#dfe9f2] p-3" data-testid="sticker-chat">
      <p className="mb-2 w-fit max-w-[75%] rounded-2xl rounded-bl-sm bg-white px-3 py-1.5 text-sm text-slate-800 shadow-sm">Look at this 👇</p>
      <div className="ml-auto w-fit">{media}</div>
      <p className="mt-1 text-right text-[11px] text-slate-500">{f.sticker.platform}</p>
    </div>
  );
}

/** Bytes against the platform's budget, as a bar and in words. */
function Budget({ bytes, budget }: { bytes: number; budget: number }) {
  const share = bytes / budget;
  return (
    <div>
      <div className="h-1.5 overflow-hidden rounded-full bg-slate-100" role="meter" aria-valuemin={0} aria-valuemax={budget} aria-valuenow={bytes} aria-label="Size against the budget">
        <div className={`h-full ${share > 0.95 ? 'bg-amber-500' : 'bg-emerald-500'}`} style={{ width: `${Math.min(100, share * 100)}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {formatBytes(bytes)} of a {formatBytes(budget)} budget ({Math.round(share * 100)} %)
      </p>
    </div>
  );
}

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
        {e.status === 'completed' ? <Badge tone="green">Fits</Badge> : e.status === 'failed' ? <Badge tone="red">Failed</Badge> : <Badge tone="amber">Encoding</Badge>}
      </div>
      {e.status === 'completed' && e.output_url && m ? (
        <>
          <ChatPreview e={e} />
          {m.sticker ? <Budget bytes={m.bytes} budget={m.sticker.budget_bytes} /> : null}
          <p className="text-xs text-slate-500">
            {m.width}×{m.height} · {Math.round(m.duration_seconds * 10) / 10} s · {m.sticker?.final_fps ?? m.fps} fps
            {m.sticker ? ` · ${m.sticker.attempts.length === 1 ? 'first attempt' : `${m.sticker.attempts.length} attempts`}` : ''}
            {m.sticker && m.sticker.speed_up > 1 ? ` · sped up ${m.sticker.speed_up}×` : ''}
          </p>
          <a href={e.output_url} download className={buttonClass('secondary', 'sm')}>
            Download<span className="sr-only"> the {f.label} file</span>
          </a>
        </>
      ) : null}
      {e.status === 'failed' ? <p className="text-xs text-rose-700">{e.error}</p> : null}
      {e.status === 'queued' ? <p className="text-xs text-slate-500">Trying smaller settings until the file fits {f.sticker.platform}&apos;s limit…</p> : null}
    </li>
  );
}

/**
 * A completed job's chat stickers: pick platforms, see each result as a chat would show it with
 * its size against the platform's budget, download one, or all of them as a ZIP.
 */
export function StickersPanel({ jobId, stickers }: { jobId: string; stickers: ExportRecord[] }) {
  const [result, add, pending] = useActionState<AddStickersState, FormData>(addStickersAction.bind(null, jobId), null);
  const unfinished = stickers.some((e) => e.status === 'queued');
  const ready = stickers.some((e) => e.status === 'completed');
  return (
    <Card>
      <CardTitle description="Animated stickers sized for each chat app: every file fits the platform's limit with 10 % to spare. Free, like every export.">
        Stickers
      </CardTitle>
      <AutoRefresh active={unfinished} />
      {stickers.length ? (
        <ul className="mb-5 grid gap-4 sm:grid-cols-2" aria-label="Stickers">
          {stickers.map((e) => (
            <StickerCard key={e.export_id} e={e} />
          ))}
        </ul>
      ) : null}
      {ready ? (
        <a href={`/jobs/${jobId}/stickers.zip`} className={`${buttonClass('secondary', 'sm')} mb-5`}>
          Download all stickers (ZIP)
        </a>
      ) : null}
      <form action={add}>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">Platforms</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {STICKERS.map((f) => (
              <label key={f.id} className="flex items-start gap-2 rounded-lg border border-slate-200 p-2 text-sm text-slate-800 hover:border-slate-300">
                <input type="checkbox" name="format" value={f.id} className="mt-0.5 h-4 w-4 rounded border-slate-300" />
                <span>
                  {f.label}
                  <span className="block text-xs text-slate-500">
                    ≤ {f.sticker.limitLabel} · {f.id}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="mt-4">
          <Button type="submit" disabled={pending}>
            {pending ? 'Adding…' : 'Make stickers'}
          </Button>
        </div>
        {result && !result.ok ? (
          <div className="mt-3">
            <Alert tone="error">{result.error}</Alert>
          </div>
        ) : null}
        {result?.ok ? (
          <p className="mt-3 text-sm text-emerald-700" role="status">
            {result.added === 1 ? 'One sticker is being made.' : `${result.added} stickers are being made.`} They appear above when they fit.
          </p>
        ) : null}
      </form>
    </Card>
  );
}
