'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createUploadAction } from '@/app/(dashboard)/jobs/actions';
import { uploadWithProgress } from '@/components/jobs/upload';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClass, LinkButton } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { SampleClipButton } from '@/components/media/sample-clip-button';
import { Dropzone } from '@/components/ui/dropzone';
import { Field, inputClass } from '@/components/ui/field';
import { ProgressBar } from '@/components/ui/progress';
import { formatBytes, formatSeconds } from '@/components/format';
import { API_MODEL_ROWS, type ApiModel } from '@/engine/api-models';
import { type Backend, type BackendChoice, chooseBackend, type PeopleModel } from '@/workers/browser/client';
import type { StudioBackground } from '@/workers/browser/studio-encoder';
import { runStudio, StudioError, type StudioOpaque, type StudioProgress, type StudioResult, type StudioStarted } from '@/workers/browser/studio-pipeline';
import { StudioProfileTable } from './profile';
import { StudioExports } from './studio-exports';
import { StudioHistory } from './history';
import { saveRun } from './history-db';

const MODELS = API_MODEL_ROWS.filter((m) => m.browser).map((m) => ({ id: m.id, label: `${m.label} — ${m.summary}` }));

/** What the run makes: the transparent cut-out only, or also the subject on a background as MP4 or WebM. */
type StudioOutput = 'cutout' | 'mp4' | 'webm';
const OUTPUTS: { id: StudioOutput; label: string }[] = [
  { id: 'cutout', label: 'Transparent WebM (VP9 with alpha)' },
  { id: 'mp4', label: 'MP4 (H.264) on a background' },
  { id: 'webm', label: 'WebM (VP9) on a background' },
];
type BackgroundChoice = 'color' | 'image' | 'blur';

/** How a finished result describes itself under its download button. */
function describeResult(r: StudioResult): string {
  const video = r.file.type === 'video/mp4' ? 'H.264 MP4' : r.file === r.cutout.file ? 'VP9 with alpha in WebM' : 'VP9 WebM';
  const sound = r.file.type === 'video/mp4' ? 'AAC' : 'Opus';
  return r.cutout.hasAudio ? `${video}, with the sound (${sound}).` : `${video}; the video has no sound this browser can read.`;
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; firstFrameOnly: boolean; progress: StudioProgress | null; started: StudioStarted | null }
  | { kind: 'done'; result: StudioResult; url: string; firstFrameOnly: boolean }
  | { kind: 'failed'; message: string; serverCanHelp: boolean };

function useBackdrop() {
  const [mode, setMode] = useState<'checker' | 'color'>('checker');
  const [color, setColor] = useState('#0ea5e9');
  return { mode, setMode, color, setColor, className: mode === 'checker' ? 'checkerboard' : '', style: mode === 'color' ? { backgroundColor: color } : undefined };
}

export function Studio({ signedIn, forceBackend, forcePeople }: { signedIn: boolean; forceBackend: Backend | null; forcePeople: PeopleModel | null }) {
  const router = useRouter();
  const [choice, setChoice] = useState<BackendChoice | null>(null);
  const [choiceError, setChoiceError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [model, setModel] = useState<ApiModel>('service-human');
  const [output, setOutput] = useState<StudioOutput>('cutout');
  const [backgroundChoice, setBackgroundChoice] = useState<BackgroundChoice>('color');
  const [outputColor, setOutputColor] = useState('#22c55e');
  const [backgroundImage, setBackgroundImage] = useState<{ name: string; bitmap: ImageBitmap } | { error: string } | null>(null);
  // The original as a local object URL, for the before/after view.
  const fileUrl = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (fileUrl ? URL.revokeObjectURL(fileUrl) : undefined), [fileUrl]);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [historyKey, setHistoryKey] = useState(0);
  const [serverUpload, setServerUpload] = useState<{ loaded: number; total: number } | { error: string } | null>(null);
  const abort = useRef<AbortController | null>(null);
  const preview = useRef<HTMLCanvasElement>(null);
  const backdrop = useBackdrop();

  useEffect(() => {
    chooseBackend(forceBackend).then(setChoice, (err: Error) => setChoiceError(err.message));
  }, [forceBackend]);

  // Free the result's object URLs when it is replaced or the page goes away.
  const doneUrl = phase.kind === 'done' ? phase.url : null;
  useEffect(() => () => (doneUrl ? URL.revokeObjectURL(doneUrl) : undefined), [doneUrl]);
  const cutoutFile = phase.kind === 'done' && phase.result.file !== phase.result.cutout.file ? phase.result.cutout.file : null;
  const cutoutUrl = useMemo(() => (cutoutFile ? URL.createObjectURL(cutoutFile) : null), [cutoutFile]);
  useEffect(() => () => (cutoutUrl ? URL.revokeObjectURL(cutoutUrl) : undefined), [cutoutUrl]);
  useEffect(() => () => abort.current?.abort(), []);

  const drawPreview = useCallback((frame: ImageData) => {
    const c = preview.current;
    if (!c) return;
    if (c.width !== frame.width || c.height !== frame.height) {
      c.width = frame.width;
      c.height = frame.height;
    }
    c.getContext('2d')?.putImageData(frame, 0, 0);
  }, []);

  /** The run's opaque result, or null for the cut-out alone (and while a background image is missing). */
  function opaqueOf(): StudioOpaque | null {
    if (output === 'cutout') return null;
    const background: StudioBackground | null =
      backgroundChoice === 'color'
        ? { kind: 'color', color: outputColor }
        : backgroundChoice === 'blur'
          ? { kind: 'blur' }
          : backgroundImage && 'bitmap' in backgroundImage
            ? { kind: 'image', image: backgroundImage.bitmap }
            : null;
    return background ? { container: output, background } : null;
  }
  const needsImage = output !== 'cutout' && backgroundChoice === 'image' && !(backgroundImage && 'bitmap' in backgroundImage);

  async function pickImage(picked: File | undefined) {
    if (!picked) return setBackgroundImage(null);
    try {
      setBackgroundImage({ name: picked.name, bitmap: await createImageBitmap(picked) });
    } catch {
      setBackgroundImage({ error: `${picked.name} is not a picture this browser can read. Choose a PNG, JPEG or WebP.` });
    }
  }

  async function run(firstFrameOnly: boolean) {
    if (!file || !choice || needsImage) return;
    abort.current = new AbortController();
    setNotice(null);
    setPhase({ kind: 'running', firstFrameOnly, progress: null, started: null });
    try {
      const result = await runStudio({
        file,
        model,
        backend: choice,
        people: forcePeople,
        opaque: opaqueOf(),
        signal: abort.current.signal,
        maxFrames: firstFrameOnly ? 1 : undefined,
        onFallback: setNotice,
        onStarted: (started) => setPhase((p) => (p.kind === 'running' ? { ...p, started } : p)),
        onProgress: (progress) => setPhase((p) => (p.kind === 'running' ? { ...p, progress } : p)),
        onPreview: drawPreview,
      });
      const url = URL.createObjectURL(firstFrameOnly ? result.thumbnail : result.file);
      setPhase({ kind: 'done', result, url, firstFrameOnly });
      if (!firstFrameOnly) {
        await saveRun({
          id: crypto.randomUUID(),
          name: file.name,
          createdAt: Date.now(),
          model,
          backend: result.backend,
          frames: result.frames,
          width: result.width,
          height: result.height,
          durationSeconds: result.durationSeconds,
          totalMs: result.totalMs,
          webm: result.file,
          thumbnail: result.thumbnail,
        }).catch(() => setNotice('The result could not be saved to this browser’s history (storage may be full or disabled).'));
        setHistoryKey((k) => k + 1);
      }
    } catch (err) {
      if ((err as Error).name === 'AbortError' || abort.current.signal.aborted) {
        setPhase({ kind: 'idle' });
        setNotice('Cancelled. Nothing was saved.');
        return;
      }
      const serverCanHelp = err instanceof StudioError ? err.serverCanHelp : true;
      const message =
        (err as Error).name === 'WorkerCrashedError'
          ? `The processing worker stopped (${(err as Error).message}). Long or large videos can exceed this browser’s memory.`
          : (err as Error).message || 'Processing failed.';
      setPhase({ kind: 'failed', message, serverCanHelp });
    }
  }

  async function sendToServer() {
    if (!file) return;
    setServerUpload({ loaded: 0, total: file.size });
    const created = await createUploadAction(file.name, file.type || 'video/mp4');
    if (!created.ok) return setServerUpload({ error: created.error });
    try {
      await uploadWithProgress(created.uploadUrl, file, created.headers, (loaded, total) => setServerUpload({ loaded, total }));
      router.push(`/jobs/new?job=${created.jobId}`);
    } catch (err) {
      setServerUpload({ error: (err as Error).message });
    }
  }

  const running = phase.kind === 'running';
  const p = running ? phase.progress : null;
  const resultIsMp4 = phase.kind === 'done' && phase.result.file.type === 'video/mp4';
  const baseName = `${file?.name.replace(/\.[^.]+$/, '') || 'video'}-keyout`;
  const downloadName = `${baseName}.${resultIsMp4 ? 'mp4' : 'webm'}`;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="studio-backend">
        {choice ? (
          <>
            <Badge tone={choice.backend === 'webgpu' ? 'green' : 'blue'}>{choice.backend === 'webgpu' ? 'WebGPU' : 'WebAssembly (CPU)'}</Badge>
            <span className="text-slate-600">{choice.reason}</span>
          </>
        ) : choiceError ? (
          <Alert tone="error">{choiceError}</Alert>
        ) : (
          <span className="text-slate-500">Checking for a GPU…</span>
        )}
      </div>
      {notice ? <Alert tone="info">{notice}</Alert> : null}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_340px]">
        <Card>
          <CardTitle description="Your video stays on this computer: it is decoded, segmented and encoded in this tab.">Video</CardTitle>
          {!file ? (
            <Dropzone accept="video/*,.mp4,.mov,.m4v,.webm,.mkv" label="Choose a video" hint="MP4 (H.264), WebM or MOV. Nothing is uploaded." onFile={setFile}>
              {/* The sample is a ball, not a person: the general Light model suits it. */}
              <SampleClipButton
                onFile={(f) => {
                  setFile(f);
                  setModel('service-light');
                }}
              />
            </Dropzone>
          ) : (
            <div className="space-y-4">
              <div className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 p-3">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{file.name}</p>
                  <p className="text-sm text-slate-600">{formatBytes(file.size)}</p>
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={running}
                  onClick={() => {
                    setFile(null);
                    setPhase({ kind: 'idle' });
                  }}
                >
                  Choose another
                </Button>
              </div>

              <div
                className={`relative flex min-h-48 items-center justify-center overflow-hidden rounded-lg ring-1 ring-slate-200 ${backdrop.className}`}
                style={backdrop.style}
              >
                {phase.kind === 'done' && !phase.firstFrameOnly ? (
                  <div className="grid w-full grid-cols-1 gap-2 p-2 sm:grid-cols-2" data-testid="studio-before-after">
                    <figure className="min-w-0">
                      <video src={fileUrl ?? undefined} loop autoPlay muted playsInline className="max-h-[50vh] w-full bg-black" aria-label="Before: the original" data-testid="studio-before" />
                      <figcaption className="mt-1 text-center text-xs font-medium text-slate-700">Before</figcaption>
                    </figure>
                    <figure className="min-w-0">
                      <video src={phase.url} controls loop autoPlay muted playsInline className="max-h-[50vh] w-full" aria-label="After: the result" data-testid="studio-result" />
                      <figcaption className="mt-1 text-center text-xs font-medium text-slate-700">After</figcaption>
                    </figure>
                  </div>
                ) : phase.kind === 'done' ? (
                  // eslint-disable-next-line @next/next/no-img-element -- a local object URL
                  <img src={phase.url} alt="First frame without its background" className="max-h-[60vh]" data-testid="studio-first-frame" />
                ) : (
                  <canvas ref={preview} className={`max-h-[60vh] max-w-full ${running ? '' : 'hidden'}`} aria-label="Live preview" />
                )}
                {phase.kind === 'idle' ? <p className="p-6 text-center text-sm text-slate-500">The cut-out appears here as frames are processed.</p> : null}
                {phase.kind === 'failed' ? <p className="p-6 text-center text-sm text-slate-500">No result.</p> : null}
              </div>
              <fieldset className="flex flex-wrap items-center gap-3 text-sm">
                <legend className="sr-only">Preview background</legend>
                <label className="flex items-center gap-1.5 text-slate-700">
                  <input type="radio" name="studio-bg" checked={backdrop.mode === 'checker'} onChange={() => backdrop.setMode('checker')} className="accent-indigo-600" />
                  Checkerboard
                </label>
                <label className="flex items-center gap-1.5 text-slate-700">
                  <input type="radio" name="studio-bg" checked={backdrop.mode === 'color'} onChange={() => backdrop.setMode('color')} className="accent-indigo-600" />
                  Colour
                </label>
                <input
                  type="color"
                  aria-label="Preview colour"
                  value={backdrop.color}
                  onChange={(e) => {
                    backdrop.setColor(e.target.value);
                    backdrop.setMode('color');
                  }}
                  className="h-8 w-10 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
                />
              </fieldset>
            </div>
          )}
        </Card>

        <div className="space-y-6">
          <Card>
            <CardTitle>Process</CardTitle>
            <div className="space-y-4">
              <Field id="studio-model" label="Model">
                <select id="studio-model" className={inputClass} value={model} onChange={(e) => setModel(e.target.value as ApiModel)} disabled={running}>
                  {MODELS.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.label}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="studio-output" label="Result">
                <select id="studio-output" className={inputClass} value={output} onChange={(e) => setOutput(e.target.value as StudioOutput)} disabled={running}>
                  {OUTPUTS.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </Field>
              {output !== 'cutout' ? (
                <fieldset className="space-y-2" disabled={running}>
                  <legend className="mb-1 text-sm font-medium text-slate-800">Background</legend>
                  <div className="flex flex-wrap gap-3 text-sm">
                    {(
                      [
                        ['color', 'Colour'],
                        ['image', 'Image'],
                        ['blur', 'Blurred'],
                      ] as const
                    ).map(([id, label]) => (
                      <label key={id} className="flex items-center gap-1.5 text-slate-700">
                        <input type="radio" name="studio-background" checked={backgroundChoice === id} onChange={() => setBackgroundChoice(id)} className="accent-indigo-600" />
                        {label}
                      </label>
                    ))}
                  </div>
                  {backgroundChoice === 'color' ? (
                    <Field id="studio-output-color" label="Background colour">
                      <input
                        id="studio-output-color"
                        type="color"
                        value={outputColor}
                        onChange={(e) => setOutputColor(e.target.value)}
                        className="h-10 w-14 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
                      />
                    </Field>
                  ) : null}
                  {backgroundChoice === 'image' ? (
                    <Field id="studio-output-image" label="Background image">
                      <input
                        id="studio-output-image"
                        type="file"
                        accept="image/png,image/jpeg,image/webp"
                        onChange={(e) => void pickImage(e.target.files?.[0])}
                        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-200"
                      />
                    </Field>
                  ) : null}
                  {backgroundChoice === 'image' && backgroundImage && 'error' in backgroundImage ? <Alert tone="error">{backgroundImage.error}</Alert> : null}
                  {needsImage && !(backgroundImage && 'error' in backgroundImage) ? <p className="text-xs text-slate-600">Choose a picture to put behind the subject; it covers the frame.</p> : null}
                </fieldset>
              ) : null}
              {running ? (
                <div className="space-y-3" data-testid="studio-progress">
                  <ProgressBar value={p ? p.framesDone / p.framesTotal : null} label="Studio progress" />
                  {phase.started?.modelReason ? (
                    <p className="text-xs text-slate-600" data-testid="studio-model-reason">
                      {phase.started.modelReason}
                    </p>
                  ) : null}
                  <p className="text-sm text-slate-700 tabular-nums" aria-live="polite">
                    {p
                      ? `Frame ${p.framesDone} of ${p.framesTotal}${p.fps ? ` · ${p.fps.toFixed(1)} frames/s` : ''} · ${p.etaSeconds !== null ? `about ${formatSeconds(p.etaSeconds)} left` : 'estimating time left…'}`
                      : phase.started
                        ? 'Finding the subject in the first frames…'
                        : 'Loading the model…'}
                  </p>
                  <Button variant="secondary" className="w-full" onClick={() => abort.current?.abort()}>
                    Cancel
                  </Button>
                </div>
              ) : (
                <div className="space-y-2">
                  <Button className="w-full" size="lg" disabled={!file || !choice || needsImage} onClick={() => void run(false)}>
                    Remove background
                  </Button>
                  <Button variant="secondary" className="w-full" disabled={!file || !choice} onClick={() => void run(true)}>
                    Preview the first frame
                  </Button>
                </div>
              )}
              {phase.kind === 'done' && !phase.firstFrameOnly ? (
                <div className="space-y-3 border-t border-slate-100 pt-4">
                  <a
                    href={phase.url}
                    download={downloadName}
                    className="inline-flex h-12 w-full items-center justify-center rounded-lg bg-emerald-700 px-6 font-medium text-white shadow-sm hover:bg-emerald-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
                  >
                    Download {resultIsMp4 ? 'MP4' : 'WebM'} ({formatBytes(phase.result.file.size)})
                  </a>
                  <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs text-slate-600" data-testid="studio-stats">
                    <dt>Frames</dt>
                    <dd className="text-right tabular-nums">{phase.result.frames}</dd>
                    <dt>Per frame</dt>
                    <dd className="text-right tabular-nums" data-testid="studio-frame-ms">{phase.result.meanFrameMs.toFixed(1)} ms</dd>
                    <dt>Total time</dt>
                    <dd className="text-right tabular-nums" data-testid="studio-total-ms">{(phase.result.totalMs / 1000).toFixed(1)} s</dd>
                    <dt>Model runs</dt>
                    <dd className="text-right tabular-nums">
                      {phase.result.engine.inferences} · {((phase.result.engine.stageSeconds.infer * 1000) / Math.max(1, phase.result.engine.inferences)).toFixed(0)} ms each
                    </dd>
                    <dt>Refinement</dt>
                    <dd className="text-right tabular-nums">{((phase.result.engine.stageSeconds.refine * 1000) / phase.result.frames).toFixed(0)} ms/frame</dd>
                    <dt>Model</dt>
                    <dd className="text-right" data-testid="studio-model">{phase.result.modelName}</dd>
                    <dt>Engine</dt>
                    <dd className="text-right">{phase.result.runtime}</dd>
                  </dl>
                  {phase.result.modelReason ? <p className="text-xs text-slate-600" data-testid="studio-model-reason">{phase.result.modelReason}</p> : null}
                  <StudioProfileTable profile={phase.result.profile} />
                  <p className="text-xs text-slate-500" data-testid="studio-result-kind">
                    {describeResult(phase.result)}
                  </p>
                  {phase.result.file !== phase.result.cutout.file ? (
                    <a href={cutoutUrl ?? undefined} download={`${baseName}-transparent.webm`} className={`${buttonClass('secondary', 'sm')} h-auto min-h-8 w-full py-1.5 text-center`}>
                      Download the transparent WebM ({formatBytes(phase.result.cutout.file.size)})
                    </a>
                  ) : null}
                </div>
              ) : null}
              {phase.kind === 'done' && phase.firstFrameOnly ? (
                <p className="text-sm text-slate-600" data-testid="studio-first-frame-info">
                  First frame done in {phase.result.meanFrameMs < 1000 ? `${phase.result.meanFrameMs.toFixed(0)} ms` : formatSeconds(phase.result.meanFrameMs / 1000)} on {phase.result.runtime}.
                </p>
              ) : null}
              {phase.kind === 'failed' ? <Alert tone="error">{phase.message}</Alert> : null}
            </div>
          </Card>

          {file ? (
            <Card>
              <CardTitle description="For long, large or HEVC videos, or when this computer is slow.">Process on the server instead</CardTitle>
              {signedIn ? (
                <div className="space-y-3">
                  {serverUpload && 'loaded' in serverUpload ? (
                    <ProgressBar value={serverUpload.loaded / Math.max(1, serverUpload.total)} label="Upload to the server" />
                  ) : null}
                  {serverUpload && 'error' in serverUpload ? <Alert tone="error">{serverUpload.error}</Alert> : null}
                  <Button
                    variant={phase.kind === 'failed' && phase.serverCanHelp ? 'primary' : 'secondary'}
                    className="w-full"
                    disabled={running || (serverUpload !== null && 'loaded' in serverUpload)}
                    onClick={() => void sendToServer()}
                  >
                    Upload and continue on the server
                  </Button>
                  <p className="text-xs text-slate-500">You will see the exact credit cost before anything is charged.</p>
                </div>
              ) : (
                <LinkButton href="/signin?next=/studio" variant="secondary" className="w-full">
                  Sign in to use the server
                </LinkButton>
              )}
            </Card>
          ) : null}
        </div>
      </div>

      {phase.kind === 'done' && !phase.firstFrameOnly && phase.result.cutout.file.size ? (
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <StudioExports key={doneUrl} cutout={phase.result.cutout} name={baseName} />
        </div>
      ) : null}

      <StudioHistory refreshKey={historyKey} />
    </div>
  );
}
