'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { quoteAction, startJobAction } from '@/app/(dashboard)/jobs/actions';
import { Button } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { Field, inputClass, TextInput } from '@/components/ui/field';
import { formatCredits, formatPrice, formatSeconds } from '@/components/format';
import type { JobQuote } from '@/lib/services/credits/quote-job';
import type { StartField } from '@/lib/services/jobs/start-errors';
import {
  type BackgroundChoice,
  CONTAINERS,
  MODELS,
  startRequest,
  TRANSPARENT_FORMATS,
} from './job-options';

/** Sends the chosen image to the job's storage (app/(dashboard)/jobs/[id]/background); its key goes into the start. */
async function uploadBackground(jobId: string, file: File): Promise<{ ok: true; key: string } | { ok: false; error: string; field: StartField }> {
  const res = await fetch(`/jobs/${jobId}/background`, { method: 'POST', body: file, headers: { 'Content-Type': file.type || 'application/octet-stream' } });
  const body = (await res.json().catch(() => ({}))) as { key?: string; error?: string; details?: string };
  if (res.ok && body.key) return { ok: true, key: body.key };
  const error = body.error ? `${body.error}${body.details && res.status !== 400 ? ` ${body.details}` : ''}` : `The image could not be uploaded (HTTP ${res.status}).`;
  return { ok: false, error, field: 'bg-file' };
}

export interface StartJobTarget {
  jobId: string;
  name: string;
}

const OUTPUT_KINDS = [
  ['transparent', 'Transparent'],
  ['color', 'Colour'],
  ['media', 'Image or video'],
  ['blur', 'Blur'],
] as const;

/**
 * Model, output, webhook, the exact cost with its parts, and Start, for one or more uploaded
 * jobs (the same options for each). Used by New job and by the job page of an uploaded job,
 * so both offer the same choices and the same quote.
 */
export function StartForm({
  targets,
  initialModel = 'service-original',
  initialChoice = { kind: 'transparent', format: 'webm_vp9' },
  initialWebhook = '',
  step = 2,
  disabled = false,
}: {
  targets: StartJobTarget[];
  initialModel?: string;
  initialChoice?: BackgroundChoice;
  initialWebhook?: string;
  /** Number of the first card ("2. Model" on New job, "1. Model" on the job page). */
  step?: number;
  disabled?: boolean;
}) {
  const router = useRouter();
  const [model, setModel] = useState<string>(
    MODELS.some((m) => m.id === initialModel) ? initialModel : 'service-original',
  );
  const [outKind, setOutKind] = useState<BackgroundChoice['kind']>(initialChoice.kind);
  const [format, setFormat] = useState(
    initialChoice.kind === 'transparent' ? initialChoice.format : 'webm_vp9',
  );
  const [color, setColor] = useState(
    initialChoice.kind === 'color' ? initialChoice.color : '#22c55e',
  );
  const [mediaUrl, setMediaUrl] = useState(initialChoice.kind === 'media' ? initialChoice.url : '');
  const [mediaFile, setMediaFile] = useState<File | null>(null);
  const [mediaType, setMediaType] = useState<'image' | 'video'>(
    initialChoice.kind === 'media' ? initialChoice.mediaType : 'image',
  );
  const [blurMode, setBlurMode] = useState<'background' | 'subject'>(
    initialChoice.kind === 'blur' ? initialChoice.mode : 'background',
  );
  const [blurIntensity, setBlurIntensity] = useState(
    initialChoice.kind === 'blur' ? initialChoice.intensity : 50,
  );
  const [container, setContainer] = useState(
    initialChoice.kind === 'transparent' ? 'mp4' : initialChoice.container,
  );
  const [webhookUrl, setWebhookUrl] = useState(initialWebhook);
  const [quoted, setQuoted] = useState<{ key: string; quote: JobQuote } | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [quoteTry, setQuoteTry] = useState(0);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<{ error: string; field?: StartField } | null>(null);
  const [started, setStarted] = useState(0);
  const fieldRefs = useRef<Partial<Record<StartField, HTMLInputElement | null>>>({});
  const ids = { model: useId(), out: useId() };

  const jobIds = targets.map((t) => t.jobId);
  const jobKey = jobIds.join(',');
  const blur = outKind === 'blur';
  // A quote counts only for the jobs and options it was made for: nothing stale is shown or started.
  const quoteKey = `${jobKey}|${model}|${blur}`;
  const quote = quoted?.key === quoteKey ? quoted.quote : null;

  useEffect(() => {
    if (!jobKey) return;
    let live = true;
    void quoteAction(jobKey.split(','), model, blur).then(
      (r) => {
        if (!live) return;
        if (r.ok) {
          setQuoted({ key: `${jobKey}|${model}|${blur}`, quote: r.quote });
          setQuoteError(null);
        } else setQuoteError(r.error);
      },
      () => live && setQuoteError('The price could not be fetched.'),
    );
    return () => {
      live = false;
    };
  }, [jobKey, model, blur, quoteTry]);

  function choice(): BackgroundChoice {
    switch (outKind) {
      case 'transparent':
        return { kind: 'transparent', format };
      case 'color':
        return { kind: 'color', color, container };
      case 'media':
        return { kind: 'media', url: mediaUrl.trim(), mediaType: mediaFile ? 'image' : mediaType, container };
      case 'blur':
        return { kind: 'blur', mode: blurMode, intensity: blurIntensity, container };
    }
  }

  function showError(e: { error: string; field?: StartField }) {
    setStartError(e);
    if (e.field) fieldRefs.current[e.field]?.focus();
  }

  async function start() {
    if (!jobIds.length) return;
    if (outKind === 'media' && !mediaFile && !mediaUrl.trim())
      return showError({
        error: 'Enter the address of the background image or video, or upload an image.',
        field: 'bg-url',
      });
    setStarting(true);
    setStartError(null);
    const chosen = choice();
    type Outcome = { ok: true } | { ok: false; error: string; field?: StartField };
    const unreachable = { ok: false as const, error: 'The server could not be reached. Try again.' };
    async function startOne(jobId: string): Promise<Outcome> {
      let background = chosen;
      // An uploaded image goes into each job's own storage, so it is deleted with the job.
      if (chosen.kind === 'media' && mediaFile) {
        const uploaded = await uploadBackground(jobId, mediaFile);
        if (!uploaded.ok) return uploaded;
        background = { ...chosen, key: uploaded.key };
      }
      return startJobAction(jobId, startRequest(model, background, webhookUrl));
    }
    // One job after the other, so a refusal (e.g. a bad URL) stops before the rest are charged.
    for (const [i, jobId] of jobIds.entries()) {
      const r = await startOne(jobId).catch((): Outcome => unreachable);
      if (!r.ok) {
        setStarting(false);
        const done = i ? ` ${i} of ${jobIds.length} videos were started; the rest were not.` : '';
        return showError({ error: `${r.error}${done}`, field: r.field });
      }
      setStarted(i + 1);
    }
    router.push(jobIds.length === 1 ? `/jobs/${jobIds[0]}` : '/jobs?status=processing');
    router.refresh();
  }

  const fieldError = (f: StartField) => (startError?.field === f ? startError.error : undefined);
  const affordable = quote ? quote.balance >= quote.credits : false;
  const seconds = quote ? quote.jobs.reduce((s, j) => s + j.lengthSeconds, 0) : 0;
  const multiplier = quote?.jobs.find((j) => j.fpsMultiplier > 1)?.fpsMultiplier;
  const modelName = MODELS.find((m) => m.id === model)?.name;

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
      <div className="space-y-6">
        <Card>
          <CardTitle>{step}. Model</CardTitle>
          <fieldset disabled={disabled}>
            <legend className="sr-only">Model</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {MODELS.map((m) => (
                <label
                  key={m.id}
                  className={`flex cursor-pointer gap-3 rounded-lg border p-3 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-600 has-[:focus-visible]:ring-offset-2 ${
                    model === m.id
                      ? 'border-indigo-500 bg-indigo-50/50'
                      : 'border-slate-200 hover:border-slate-300'
                  }`}
                >
                  <input
                    type="radio"
                    name={ids.model}
                    value={m.id}
                    checked={model === m.id}
                    onChange={() => setModel(m.id)}
                    className="mt-1 accent-indigo-600"
                  />
                  <span>
                    <span className="block text-sm font-medium text-slate-900">
                      {m.name}{' '}
                      <span className="font-normal text-slate-600">· {m.rate} credit/s</span>
                    </span>
                    <span className="block text-xs text-slate-600">{m.blurb}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        </Card>

        <Card>
          <CardTitle>{step + 1}. Output</CardTitle>
          <fieldset disabled={disabled}>
            <legend className="sr-only">Background</legend>
            <div className="flex flex-wrap gap-2">
              {OUTPUT_KINDS.map(([k, label]) => (
                <label
                  key={k}
                  className={`cursor-pointer rounded-lg border px-3 py-2 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-600 has-[:focus-visible]:ring-offset-2 ${
                    outKind === k
                      ? 'border-indigo-500 bg-indigo-50 text-indigo-700'
                      : 'border-slate-200 text-slate-700 hover:border-slate-300'
                  }`}
                >
                  <input
                    type="radio"
                    name={ids.out}
                    value={k}
                    checked={outKind === k}
                    onChange={() => setOutKind(k)}
                    className="sr-only"
                  />
                  {label}
                  {k === 'blur' ? (
                    <span className="font-normal text-slate-600"> · +1 credit/s</span>
                  ) : null}
                </label>
              ))}
            </div>
          </fieldset>

          <div className="mt-5 grid gap-4 sm:grid-cols-2">
            {outKind === 'transparent' ? (
              <div className="sm:col-span-2">
                <Field id="format" label="Format">
                  <select
                    id="format"
                    className={inputClass}
                    value={format}
                    onChange={(e) => setFormat(e.target.value)}
                    disabled={disabled}
                  >
                    {TRANSPARENT_FORMATS.map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.label}
                      </option>
                    ))}
                  </select>
                </Field>
              </div>
            ) : null}
            {outKind === 'color' ? (
              <Field id="color" label="Background colour" error={fieldError('color')}>
                <div className="flex gap-2">
                  <input
                    id="color"
                    type="color"
                    value={color}
                    onChange={(e) => setColor(e.target.value)}
                    className="h-10 w-14 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
                    disabled={disabled}
                  />
                  <TextInput
                    ref={(el) => {
                      fieldRefs.current.color = el;
                    }}
                    aria-label="Colour as hex"
                    value={color}
                    onChange={(e) => setColor(e.target.value)}
                    pattern="#[0-9a-fA-F]{6}"
                    className="font-mono"
                    disabled={disabled}
                    aria-invalid={fieldError('color') ? true : undefined}
                    aria-describedby={fieldError('color') ? 'color-error' : undefined}
                  />
                </div>
              </Field>
            ) : null}
            {outKind === 'media' ? (
              <>
                <Field
                  id="bg-url"
                  label="Background URL"
                  hint={
                    mediaFile
                      ? 'Not used: the uploaded image is the background.'
                      : 'A public http(s) address of an image or video. It is checked before anything is charged.'
                  }
                  error={fieldError('bg-url')}
                >
                  <TextInput
                    ref={(el) => {
                      fieldRefs.current['bg-url'] = el;
                    }}
                    id="bg-url"
                    type="url"
                    value={mediaUrl}
                    onChange={(e) => setMediaUrl(e.target.value)}
                    placeholder="https://example.com/beach.jpg"
                    disabled={disabled || Boolean(mediaFile)}
                  />
                </Field>
                <Field
                  id="bg-file"
                  label="Or upload an image"
                  hint="PNG, JPEG or WebP, up to 20 MB. It is kept with the job and deleted with it."
                  error={fieldError('bg-file')}
                >
                  <input
                    ref={(el) => {
                      fieldRefs.current['bg-file'] = el;
                    }}
                    id="bg-file"
                    type="file"
                    accept="image/png,image/jpeg,image/webp"
                    onChange={(e) => {
                      setMediaFile(e.target.files?.[0] ?? null);
                      // A new pick answers the refusal of the one before.
                      if (startError?.field === 'bg-file' || startError?.field === 'bg-url') setStartError(null);
                    }}
                    className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-indigo-700 hover:file:bg-indigo-100"
                    disabled={disabled}
                  />
                </Field>
                <Field id="bg-type" label="Background is a">
                  <select
                    id="bg-type"
                    className={inputClass}
                    value={mediaFile ? 'image' : mediaType}
                    onChange={(e) => setMediaType(e.target.value as 'image' | 'video')}
                    disabled={disabled || Boolean(mediaFile)}
                  >
                    <option value="image">Image</option>
                    <option value="video">Video (loops)</option>
                  </select>
                </Field>
              </>
            ) : null}
            {outKind === 'blur' ? (
              <>
                <Field id="blur-mode" label="Blur">
                  <select
                    id="blur-mode"
                    className={inputClass}
                    value={blurMode}
                    onChange={(e) => setBlurMode(e.target.value as 'background' | 'subject')}
                    disabled={disabled}
                  >
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
                    disabled={disabled}
                  />
                </Field>
              </>
            ) : null}
            {outKind !== 'transparent' ? (
              <Field id="container" label="File type">
                <select
                  id="container"
                  className={inputClass}
                  value={container}
                  onChange={(e) => setContainer(e.target.value)}
                  disabled={disabled}
                >
                  {CONTAINERS.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.label}
                    </option>
                  ))}
                </select>
              </Field>
            ) : null}
          </div>

          <details
            className="mt-5 rounded-lg border border-slate-200 p-3"
            open={Boolean(initialWebhook) || startError?.field === 'webhook'}
          >
            <summary className="cursor-pointer text-sm font-medium text-slate-700">
              Webhook (optional)
            </summary>
            <div className="mt-3">
              <Field
                id="webhook"
                label="Notify this URL when the job completes or fails"
                hint="We POST job.started, job.completed and job.failed as JSON."
                error={fieldError('webhook')}
              >
                <TextInput
                  ref={(el) => {
                    fieldRefs.current.webhook = el;
                  }}
                  id="webhook"
                  type="url"
                  value={webhookUrl}
                  onChange={(e) => setWebhookUrl(e.target.value)}
                  placeholder="https://example.com/hooks/keyout"
                  disabled={disabled}
                />
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
              <dt className="text-slate-600">
                {targets.length > 1 ? `${targets.length} videos` : 'Duration'}
              </dt>
              <dd className="tabular-nums text-slate-900">
                {quote ? formatSeconds(seconds) : '—'}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">{modelName}</dt>
              <dd className="tabular-nums text-slate-900">
                {quote ? `${quote.modelRate} credit/s` : '—'}
              </dd>
            </div>
            {quote && quote.blurRate ? (
              <div className="flex justify-between gap-4">
                <dt className="text-slate-600">Blur</dt>
                <dd className="tabular-nums text-slate-900">+{quote.blurRate} credit/s</dd>
              </div>
            ) : null}
            {multiplier ? (
              <div className="flex justify-between gap-4">
                <dt className="text-slate-600">Frame rate above 30 fps</dt>
                <dd className="tabular-nums text-slate-900">
                  × {Math.round(multiplier * 100) / 100}
                </dd>
              </div>
            ) : null}
            {quote ? (
              <div>
                <dt className="sr-only">How the cost adds up</dt>
                <dd className="text-xs text-slate-600" data-testid="job-cost-parts">
                  {quote.jobs
                    .map(
                      (j) =>
                        `${quote.modelRate + quote.blurRate} × ${Math.round(j.lengthSeconds * 100) / 100} s${j.fpsMultiplier > 1 ? ` × ${Math.round(j.fpsMultiplier * 100) / 100}` : ''}, rounded up = ${j.credits}`,
                    )
                    .join('; ')}
                </dd>
              </div>
            ) : null}
            <div className="flex justify-between gap-4 border-t border-slate-100 pt-2">
              <dt className="font-medium text-slate-900">Cost</dt>
              <dd className="font-semibold tabular-nums text-slate-900" data-testid="job-cost">
                {quote ? formatCredits(quote.credits) : '—'}
              </dd>
            </div>
            {quote ? (
              <div>
                <dt className="sr-only">In dollars</dt>
                <dd className="text-right text-xs text-slate-600">
                  {formatPrice(Math.round(quote.credits * quote.creditCents.min))}–
                  {formatPrice(Math.round(quote.credits * quote.creditCents.max))} at credit-pack
                  prices (
                  <Link href="/credits" className="underline">
                    packs
                  </Link>
                  )
                </dd>
              </div>
            ) : null}
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">Your balance</dt>
              <dd className="tabular-nums text-slate-900">
                {quote ? formatCredits(quote.balance) : '—'}
              </dd>
            </div>
          </dl>
          <div className="mt-4 space-y-3">
            {!jobIds.length ? (
              <p className="text-sm text-slate-600">Upload a video to see the exact cost.</p>
            ) : null}
            {quoteError ? (
              <Alert tone="error">
                {quoteError}{' '}
                <button
                  type="button"
                  className="font-medium underline"
                  onClick={() => setQuoteTry((n) => n + 1)}
                >
                  Try again
                </button>
              </Alert>
            ) : null}
            {quote && !affordable ? (
              <Alert tone="warning">
                You need {formatCredits(quote.credits - quote.balance)} more.{' '}
                <Link href="/credits" className="font-medium underline">
                  Buy credits
                </Link>
              </Alert>
            ) : null}
            {startError && !startError.field ? (
              <Alert tone="error">{startError.error}</Alert>
            ) : null}
            {startError?.field ? (
              <p className="text-sm text-rose-700" role="alert">
                Check the highlighted field: {startError.error}
              </p>
            ) : null}
            <Button
              className="w-full"
              size="lg"
              disabled={disabled || !quote || !affordable || starting}
              onClick={() => void start()}
            >
              {starting
                ? targets.length > 1
                  ? `Starting ${started + 1} of ${targets.length}…`
                  : 'Starting…'
                : quote
                  ? `Start — ${formatCredits(quote.credits)}`
                  : 'Start processing'}
            </Button>
            <p className="text-xs text-slate-600">Failed jobs are refunded automatically.</p>
          </div>
        </Card>
      </aside>
    </div>
  );
}
