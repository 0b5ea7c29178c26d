'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { createUploadAction, quoteAction, startJobAction } from '@/app/(dashboard)/jobs/actions';
import { Button } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { Dropzone } from '@/components/ui/dropzone';
import { Field, inputClass, TextInput } from '@/components/ui/field';
import { ProgressBar } from '@/components/ui/progress';
import { formatBytes, formatCredits, formatSeconds } from '@/components/format';
import type { JobQuote } from '@/lib/services/dashboard/quote-job';
import { type BackgroundChoice, CONTAINERS, MODELS, startRequest, TRANSPARENT_FORMATS } from './job-options';
import { uploadWithProgress } from './upload';

type Upload =
  | { state: 'idle' }
  | { state: 'uploading'; file: File; loaded: number; total: number }
  | { state: 'uploaded'; file: { name: string; size: number }; jobId: string }
  | { state: 'failed'; file: File; error: string };

const ACCEPT = 'video/mp4,video/quicktime,video/webm,video/x-msvideo,video/x-matroska,.mp4,.mov,.m4v,.webm,.avi,.mkv';

export function NewJob({
  maxUploadBytes,
  uploaded,
}: {
  maxUploadBytes: number;
  /** A job whose video is already uploaded (e.g. sent over from the Studio). */
  uploaded?: { jobId: string; name: string; size: number };
}) {
  const router = useRouter();
  const [upload, setUpload] = useState<Upload>(
    uploaded ? { state: 'uploaded', jobId: uploaded.jobId, file: { name: uploaded.name, size: uploaded.size } } : { state: 'idle' },
  );
  const [model, setModel] = useState<string>('service-original');
  const [outKind, setOutKind] = useState<BackgroundChoice['kind']>('transparent');
  const [format, setFormat] = useState('webm_vp9');
  const [color, setColor] = useState('#22c55e');
  const [mediaUrl, setMediaUrl] = useState('');
  const [mediaType, setMediaType] = useState<'image' | 'video'>('image');
  const [blurMode, setBlurMode] = useState<'background' | 'subject'>('background');
  const [blurIntensity, setBlurIntensity] = useState(50);
  const [container, setContainer] = useState('mp4');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [quote, setQuote] = useState<JobQuote | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const ids = { model: useId(), out: useId() };

  const jobId = upload.state === 'uploaded' ? upload.jobId : null;
  const blur = outKind === 'blur';

  useEffect(() => {
    if (!jobId) return;
    let live = true;
    void quoteAction(jobId, model, blur).then((r) => {
      if (!live) return;
      if (r.ok) {
        setQuote(r.quote);
        setQuoteError(null);
      } else setQuoteError(r.error);
    });
    return () => {
      live = false;
    };
  }, [jobId, model, blur]);

  useEffect(() => () => abort.current?.abort(), []);

  async function onFile(file: File) {
    if (file.size > maxUploadBytes) {
      setUpload({ state: 'failed', file, error: `This file is ${formatBytes(file.size)}; the limit is ${formatBytes(maxUploadBytes)}.` });
      return;
    }
    setQuote(null);
    setUpload({ state: 'uploading', file, loaded: 0, total: file.size });
    const created = await createUploadAction(file.name, file.type || 'video/mp4');
    if (!created.ok) return setUpload({ state: 'failed', file, error: created.error });
    abort.current = new AbortController();
    try {
      await uploadWithProgress(
        created.uploadUrl,
        file,
        created.headers,
        (loaded, total) => setUpload({ state: 'uploading', file, loaded, total }),
        abort.current.signal,
      );
      setUpload({ state: 'uploaded', file, jobId: created.jobId });
    } catch (err) {
      if ((err as Error).name === 'AbortError') return setUpload({ state: 'idle' });
      setUpload({ state: 'failed', file, error: (err as Error).message });
    }
  }

  function choice(): BackgroundChoice {
    switch (outKind) {
      case 'transparent':
        return { kind: 'transparent', format };
      case 'color':
        return { kind: 'color', color, container };
      case 'media':
        return { kind: 'media', url: mediaUrl, mediaType, container };
      case 'blur':
        return { kind: 'blur', mode: blurMode, intensity: blurIntensity, container };
    }
  }

  async function start() {
    if (!jobId) return;
    setStarting(true);
    setStartError(null);
    const r = await startJobAction(jobId, startRequest(model, choice(), webhookUrl));
    if (r.ok) router.push(`/jobs/${jobId}`);
    else {
      setStartError(r.error);
      setStarting(false);
    }
  }

  const affordable = quote ? quote.balance >= quote.credits : false;

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
      <div className="space-y-6">
        <Card>
          <CardTitle description="MP4, MOV, WebM, AVI, MKV or M4V, up to 1 GB. It goes straight to storage over a signed URL.">1. Your video</CardTitle>
          {upload.state === 'idle' || upload.state === 'failed' ? (
            <>
              <Dropzone accept={ACCEPT} label="Choose a video" hint={`Up to ${formatBytes(maxUploadBytes)}`} onFile={(f) => void onFile(f)} />
              {upload.state === 'failed' ? (
                <div className="mt-4">
                  <Alert tone="error">
                    <strong>{upload.file.name}</strong> could not be uploaded: {upload.error}
                  </Alert>
                </div>
              ) : null}
            </>
          ) : (
            <div className="rounded-lg border border-slate-200 p-4">
              <div className="flex items-center justify-between gap-4">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900">{upload.file.name}</p>
                  <p className="text-sm text-slate-600">
                    {upload.state === 'uploading'
                      ? `Uploading… ${formatBytes(upload.loaded)} of ${formatBytes(upload.total)}`
                      : quote
                        ? `${formatBytes(upload.file.size)} · ${formatSeconds(quote.lengthSeconds)} · ${quote.width}×${quote.height} · ${Math.round(quote.fps * 100) / 100} fps`
                        : `${formatBytes(upload.file.size)} · uploaded`}
                  </p>
                </div>
                {upload.state === 'uploading' ? (
                  <Button variant="secondary" size="sm" onClick={() => abort.current?.abort()}>
                    Cancel
                  </Button>
                ) : (
                  <Button variant="ghost" size="sm" onClick={() => setUpload({ state: 'idle' })} disabled={starting}>
                    Choose another
                  </Button>
                )}
              </div>
              <div className="mt-3">
                <ProgressBar value={upload.state === 'uploading' ? upload.loaded / Math.max(1, upload.total) : 1} label="Upload progress" />
              </div>
            </div>
          )}
        </Card>

        <Card>
          <CardTitle>2. Model</CardTitle>
          <fieldset>
            <legend className="sr-only">Model</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {MODELS.map((m) => (
                <label
                  key={m.id}
                  className={`flex cursor-pointer gap-3 rounded-lg border p-3 focus-within:ring-2 focus-within:ring-indigo-500 ${
                    model === m.id ? 'border-indigo-500 bg-indigo-50/50' : 'border-slate-200 hover:border-slate-300'
                  }`}
                >
                  <input type="radio" name={ids.model} value={m.id} checked={model === m.id} onChange={() => setModel(m.id)} className="mt-1 accent-indigo-600" />
                  <span>
                    <span className="block text-sm font-medium text-slate-900">
                      {m.name} <span className="font-normal text-slate-500">· {m.rate} credit/s</span>
                    </span>
                    <span className="block text-xs text-slate-600">{m.blurb}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        </Card>

        <Card>
          <CardTitle>3. Output</CardTitle>
          <fieldset>
            <legend className="sr-only">Background</legend>
            <div className="flex flex-wrap gap-2">
              {(
                [
                  ['transparent', 'Transparent'],
                  ['color', 'Colour'],
                  ['media', 'Image or video'],
                  ['blur', 'Blur'],
                ] as const
              ).map(([k, label]) => (
                <label
                  key={k}
                  className={`cursor-pointer rounded-lg border px-3 py-2 text-sm font-medium focus-within:ring-2 focus-within:ring-indigo-500 ${
                    outKind === k ? 'border-indigo-500 bg-indigo-50 text-indigo-700' : 'border-slate-200 text-slate-700 hover:border-slate-300'
                  }`}
                >
                  <input type="radio" name={ids.out} value={k} checked={outKind === k} onChange={() => setOutKind(k)} className="sr-only" />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>

          <div className="mt-5 grid gap-4 sm:grid-cols-2">
            {outKind === 'transparent' ? (
              <Field id="format" label="Format">
                <select id="format" className={inputClass} value={format} onChange={(e) => setFormat(e.target.value)}>
                  {TRANSPARENT_FORMATS.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.label}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
            {outKind === 'color' ? (
              <Field id="color" label="Background colour">
                <div className="flex gap-2">
                  <input
                    id="color"
                    type="color"
                    value={color}
                    onChange={(e) => setColor(e.target.value)}
                    className="h-10 w-14 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
                  />
                  <TextInput
                    aria-label="Colour as hex"
                    value={color}
                    onChange={(e) => setColor(e.target.value)}
                    pattern="#[0-9a-fA-F]{6}"
                    className="font-mono"
                  />
                </div>
              </Field>
            ) : null}
            {outKind === 'media' ? (
              <>
                <Field id="bg-url" label="Background URL" hint="A public http(s) address of an image or video.">
                  <TextInput id="bg-url" type="url" value={mediaUrl} onChange={(e) => setMediaUrl(e.target.value)} placeholder="https://example.com/beach.jpg" />
                </Field>
                <Field id="bg-type" label="Background is a">
                  <select id="bg-type" className={inputClass} value={mediaType} onChange={(e) => setMediaType(e.target.value as 'image' | 'video')}>
                    <option value="image">Image</option>
                    <option value="video">Video</option>
                  </select>
                </Field>
              </>
            ) : null}
            {outKind === 'blur' ? (
              <>
                <Field id="blur-mode" label="Blur">
                  <select id="blur-mode" className={inputClass} value={blurMode} onChange={(e) => setBlurMode(e.target.value as 'background' | 'subject')}>
                    <option value="background">The background (keep the subject sharp)</option>
                    <option value="subject">The subject (e.g. to anonymise)</option>
                  </select>
                </Field>
                <Field id="blur-intensity" label={`Strength: ${blurIntensity}`}>
                  <input
                    id="blur-intensity"
                    type="range"
                    min={5}
                    max={100}
                    value={blurIntensity}
                    onChange={(e) => setBlurIntensity(Number(e.target.value))}
                    className="w-full accent-indigo-600"
                  />
                </Field>
              </>
            ) : null}
            {outKind !== 'transparent' ? (
              <Field id="container" label="File type">
                <select id="container" className={inputClass} value={container} onChange={(e) => setContainer(e.target.value)}>
                  {CONTAINERS.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.label}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
          </div>

          <details className="mt-5 rounded-lg border border-slate-200 p-3">
            <summary className="cursor-pointer text-sm font-medium text-slate-700">Webhook (optional)</summary>
            <div className="mt-3">
              <Field id="webhook" label="Notify this URL when the job completes or fails" hint="We POST job.started, job.completed and job.failed as JSON.">
                <TextInput id="webhook" type="url" value={webhookUrl} onChange={(e) => setWebhookUrl(e.target.value)} placeholder="https://example.com/hooks/keyout" />
              </Field>
            </div>
          </details>
        </Card>
      </div>

      <aside className="lg:sticky lg:top-10 lg:self-start">
        <Card>
          <CardTitle>Summary</CardTitle>
          <dl className="space-y-2 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Duration</dt>
              <dd className="tabular-nums text-slate-900">{quote ? formatSeconds(quote.lengthSeconds) : '—'}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Model</dt>
              <dd className="text-slate-900">{MODELS.find((m) => m.id === model)?.name}</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-slate-100 pt-2">
              <dt className="font-medium text-slate-900">Cost</dt>
              <dd className="font-semibold tabular-nums text-slate-900" data-testid="job-cost">
                {quote ? formatCredits(quote.credits) : '—'}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Your balance</dt>
              <dd className="tabular-nums text-slate-900">{quote ? formatCredits(quote.balance) : '—'}</dd>
            </div>
          </dl>
          <div className="mt-4 space-y-3">
            {!jobId ? <p className="text-sm text-slate-500">Upload a video to see the exact cost.</p> : null}
            {quoteError ? <Alert tone="error">{quoteError}</Alert> : null}
            {quote && !affordable ? (
              <Alert tone="warning">
                You need {formatCredits(quote.credits - quote.balance)} more.{' '}
                <Link href="/credits" className="font-medium underline">
                  Buy credits
                </Link>
              </Alert>
            ) : null}
            {startError ? <Alert tone="error">{startError}</Alert> : null}
            <Button className="w-full" size="lg" disabled={!quote || !affordable || starting || (outKind === 'media' && !mediaUrl)} onClick={() => void start()}>
              {starting ? 'Starting…' : quote ? `Start — ${formatCredits(quote.credits)}` : 'Start processing'}
            </Button>
            <p className="text-xs text-slate-500">Failed jobs are refunded automatically.</p>
          </div>
        </Card>
      </aside>
    </div>
  );
}
