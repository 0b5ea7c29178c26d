'use client';

import { zipSync, type Zippable } from 'fflate';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '@/components/format';
import {
  BudgetMeter,
  StickerChatPreview,
  StickerChoices,
  stickerOf,
} from '@/components/media/sticker-view';
import { Badge } from '@/components/ui/badge';
import { CheckboxGrid } from '@/components/ui/checkbox-grid';
import { Button, buttonClass } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { type ExportFormat, OUTPUT_FORMATS } from '@/engine/formats';
import { makeFromCutout, type MadeFile, type StudioCutout } from '@/workers/browser/studio-exports';

/** The transparent formats the studio makes from its cut-out (the catalogue's `studio` flag). */
const ANIMATIONS = OUTPUT_FORMATS.filter((f) => f.studio && f.family === 'transparent');

type Made = { ok: true; file: MadeFile; url: string } | { ok: false; error: string };

const formatOf = (id: string) => OUTPUT_FORMATS.find((f) => f.id === id)!;

/** What a made file's list item says of it to scripts (tests, scripts/bench-studio-formats.ts). */
const madeData = (format: string, m: Made) => ({
  'data-format': format,
  ...(m.ok ? { 'data-bytes': m.file.blob.size, 'data-ms': Math.round(m.file.ms) } : {}),
});

/** Everything made from one cut-out, and the one job at a time that makes more. */
function useCutoutFiles(cutout: StudioCutout) {
  const [made, setMade] = useState<ReadonlyMap<string, Made>>(new Map());
  const [working, setWorking] = useState<{ formats: ExportFormat[]; done: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const urls = useRef<string[]>([]);
  useEffect(
    () => () => {
      abort.current?.abort();
      urls.current.forEach((u) => URL.revokeObjectURL(u));
    },
    [],
  );

  async function make(formats: ExportFormat[]) {
    abort.current = new AbortController();
    setError(null);
    setWorking({ formats, done: 0 });
    try {
      await makeFromCutout(cutout, formats, {
        signal: abort.current.signal,
        onFile: (r) => {
          const entry: Made = r.ok
            ? { ok: true, file: r.file, url: URL.createObjectURL(r.file.blob) }
            : { ok: false, error: r.error };
          if (entry.ok) urls.current.push(entry.url);
          setMade((m) => new Map(m).set(r.ok ? r.file.format : r.format, entry));
          setWorking((w) => (w ? { ...w, done: w.done + 1 } : w));
        },
      });
    } catch (err) {
      if ((err as Error).name !== 'AbortError')
        setError((err as Error).message || 'The files could not be made.');
    } finally {
      setWorking(null);
    }
  }

  return { made, working, error, make, cancel: () => abort.current?.abort() };
}

function Progress({
  working,
  kind,
}: {
  working: { formats: ExportFormat[]; done: number };
  kind: string;
}) {
  const next = formatOf(working.formats[Math.min(working.done, working.formats.length - 1)]!);
  return (
    <p
      className="text-sm text-slate-700"
      aria-live="polite"
      data-testid={`studio-${kind}-progress`}
    >
      Making {working.done + 1} of {working.formats.length}: {next.label}…
    </p>
  );
}

/**
 * After a run: the cut-out's further files, made in this tab from the cut-out with ffmpeg.wasm
 * (animations, a PNG sequence) and the chat stickers with their byte budgets. Nothing is uploaded.
 */
export function StudioExports({ cutout, name }: { cutout: StudioCutout; name: string }) {
  const files = useCutoutFiles(cutout);
  const [animations, setAnimations] = useState<ReadonlySet<string>>(new Set());
  const [stickers, setStickers] = useState<ReadonlySet<string>>(new Set());
  const toggle =
    (set: (f: (s: ReadonlySet<string>) => ReadonlySet<string>) => void) =>
    (format: string, on: boolean) =>
      set((s) => {
        const next = new Set(s);
        if (on) next.add(format);
        else next.delete(format);
        return next;
      });
  const busy = files.working !== null;
  const madeStickers = [...files.made.entries()].filter(([f]) => stickerOf(f));
  const madeAnimations = [...files.made.entries()].filter(([f]) => !stickerOf(f));
  const fileName = (format: string) => `${name}-${format}.${formatOf(format).extension}`;

  /** Every sticker that fits, in one ZIP made here (stored: the files are compressed already). */
  async function downloadAllStickers() {
    const members: Zippable = {};
    for (const [format, m] of madeStickers)
      if (m.ok)
        members[fileName(format)] = [new Uint8Array(await m.file.blob.arrayBuffer()), { level: 0 }];
    const url = URL.createObjectURL(new Blob([zipSync(members)], { type: 'application/zip' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${name}-stickers.zip`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  return (
    <>
      <Card>
        <CardTitle
          description={'Made in this tab from the cut-out with ffmpeg.wasm. Nothing is uploaded.'}
        >
          More formats
        </CardTitle>
        <div className="space-y-4">
          <CheckboxGrid
            legend="Formats"
            options={ANIMATIONS}
            checked={animations}
            onChange={toggle(setAnimations)}
            disabled={busy}
          />
          <MakeControls
            label="Make"
            family="transparent"
            kind="formats"
            chosen={animations}
            files={files}
          />
          {madeAnimations.length ? (
            <ul className="space-y-2" aria-label="Made formats" data-testid="studio-formats">
              {madeAnimations.map(([format, m]) => (
                <li
                  key={format}
                  className={
                    'flex flex-wrap items-center justify-between gap-2 rounded-lg ' +
                    'border border-slate-200 p-2 text-sm'
                  }
                  {...madeData(format, m)}
                >
                  <span className="text-slate-800">{formatOf(format).label}</span>
                  {m.ok ? (
                    <a
                      href={m.url}
                      download={fileName(format)}
                      className={buttonClass('secondary', 'sm')}
                    >
                      Download {formatOf(format).extension.toUpperCase()} (
                      {formatBytes(m.file.blob.size)})
                    </a>
                  ) : (
                    <span className="text-rose-700">{m.error}</span>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </Card>

      <Card>
        <CardTitle
          description={
            'Animated stickers sized for each chat app, made in this tab: ' +
            "every file fits the platform's limit with 10 % to spare."
          }
        >
          Stickers
        </CardTitle>
        <div className="space-y-4">
          <StickerChoices checked={stickers} onChange={toggle(setStickers)} />
          <MakeControls
            label="Make stickers"
            family="sticker"
            kind="stickers"
            chosen={stickers}
            files={files}
          />
          {madeStickers.length ? (
            <ul
              className="grid gap-4 sm:grid-cols-2"
              aria-label="Stickers"
              data-testid="studio-stickers"
            >
              {madeStickers.map(([format, m]) => (
                <MadeSticker key={format} format={format} made={m} fileName={fileName(format)} />
              ))}
            </ul>
          ) : null}
          {madeStickers.some(([, m]) => m.ok) ? (
            <Button variant="secondary" size="sm" onClick={() => void downloadAllStickers()}>
              Download all stickers (ZIP)
            </Button>
          ) : null}
        </div>
      </Card>
      {files.error ? <Alert tone="error">{files.error}</Alert> : null}
    </>
  );
}

/**
 * A sticker made in this tab: in a chat bubble, against its byte budget, with its download; or why
 * it failed.
 */
function MadeSticker({
  format,
  made: m,
  fileName,
}: {
  format: string;
  made: Made;
  fileName: string;
}) {
  const f = stickerOf(format)!;
  return (
    <li
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3"
      {...madeData(format, m)}
    >
      <div className="flex items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{f.label.split(' (')[0]}</p>
          <p className="font-mono text-xs text-slate-500">{f.id}</p>
        </div>
        {m.ok ? <Badge tone="green">Fits</Badge> : <Badge tone="red">Failed</Badge>}
      </div>
      {m.ok ? (
        <>
          <StickerChatPreview format={format} url={m.url} />
          <BudgetMeter bytes={m.file.blob.size} budget={m.file.sticker!.budgetBytes} />
          <p className="text-xs text-slate-500">
            {f.sticker.canvas.width}×{f.sticker.canvas.height} ·{' '}
            {Math.round(m.file.sticker!.fps * 100) / 100} fps ·{' '}
            {m.file.sticker!.attempts.length === 1
              ? 'first attempt'
              : `${m.file.sticker!.attempts.length} attempts`}{' '}
            · {(m.file.ms / 1000).toFixed(1)} s
          </p>
          <a href={m.url} download={fileName} className={buttonClass('secondary', 'sm')}>
            Download<span className="sr-only"> the {f.label} file</span>
          </a>
        </>
      ) : (
        <p className="text-xs text-rose-700">{m.error}</p>
      )}
    </li>
  );
}

type CutoutFiles = ReturnType<typeof useCutoutFiles>;

/**
 * Makes the chosen files of one family (`kind` names them in the progress line), with their
 * progress and a Cancel button while that family's files are being made.
 */
function MakeControls({
  label,
  family,
  kind,
  chosen,
  files,
}: {
  label: string;
  family: 'transparent' | 'sticker';
  kind: string;
  chosen: ReadonlySet<string>;
  files: CutoutFiles;
}) {
  const working =
    files.working && formatOf(files.working.formats[0]!).family === family ? files.working : null;
  return (
    <>
      {working ? <Progress working={working} kind={kind} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          disabled={files.working !== null || chosen.size === 0}
          onClick={() => void files.make([...chosen] as ExportFormat[])}
        >
          {label}
        </Button>
        {working ? (
          <Button variant="secondary" onClick={files.cancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </>
  );
}
