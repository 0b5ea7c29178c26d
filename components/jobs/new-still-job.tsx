'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { quoteAction, startJobAction } from '@/app/(dashboard)/jobs/actions';
import { createStillUploadAction } from '@/app/(dashboard)/jobs/new/image/actions';
import { Button } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { Dropzone } from '@/components/ui/dropzone';
import { FormWithSummary } from '@/components/ui/form-with-summary';
import { ChoiceSelect, Field } from '@/components/ui/field';
import { formatCredits } from '@/components/format';
import { DEFAULT_MODEL } from '@/engine/api-models';
import { OUTPUT_FORMATS } from '@/engine/formats';
import { MOTIONS, STILL_DEFAULTS, STILL_LIMITS } from '@/engine/media/still';
import type { JobQuote } from '@/lib/services/credits/quote-job';
import { MODELS } from './job-options';
import { uploadWithProgress } from './upload';

const STICKERS = OUTPUT_FORMATS.filter((f) => f.family === 'sticker');
const MOTION_LABELS: Record<(typeof MOTIONS)[number], string> = {
  none: 'Still (no camera move)',
  zoom_in: 'Zoom in',
  zoom_out: 'Zoom out',
  pan_left: 'Pan left',
  pan_right: 'Pan right',
  bounce: 'Bounce',
};
const MOTION_CHOICES = MOTIONS.map((id) => ({ id, label: MOTION_LABELS[id] }));
const MODEL_CHOICES = MODELS.map((m) => ({ id: m.id, label: `${m.name} · ${m.rate} credit/s` }));
const FPS_CHOICES = [12, 15, 24, 30].map((f) => ({ id: String(f), label: `${f} fps` }));

/** A signed URL on our own origin as a path, so the PUT never depends on PUBLIC_URL. */
const samePath = (url: string) => {
  const u = new URL(url, window.location.href);
  return u.origin === window.location.origin ? `${u.pathname}${u.search}` : url;
};

/**
 * The image-to-video flow (POST /v1/h3/image-to-video's service): options, then the image
 * (uploaded over a signed URL), the exact cost, start. The clip's length, rate and move are
 * fixed when the image is uploaded.
 */
export function NewStillJob() {
  const router = useRouter();
  const [duration, setDuration] = useState(STILL_DEFAULTS.durationSeconds);
  const [fps, setFps] = useState(STILL_DEFAULTS.fps);
  const [motion, setMotion] = useState<(typeof MOTIONS)[number]>('bounce');
  const [model, setModel] = useState<string>(DEFAULT_MODEL);
  const [stickers, setStickers] = useState<string[]>(['telegram_video_v1', 'whatsapp_webp_v1']);
  const [jobId, setJobId] = useState<string | null>(null);
  const [busy, setBusy] = useState<'uploading' | 'starting' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [quote, setQuote] = useState<JobQuote | null>(null);

  useEffect(() => {
    if (!jobId) return;
    let live = true;
    void quoteAction([jobId], model, false).then((r) => {
      if (live) {
        if (r.ok) setQuote(r.quote);
        else setError(r.error);
      }
    });
    return () => {
      live = false;
    };
  }, [jobId, model]);

  const request = () => ({
    model,
    ...(stickers.length
      ? { background: { type: 'transparent' }, exports: stickers.map((format) => ({ format })) }
      : {}),
  });

  async function onFile(file: File) {
    setError(null);
    setBusy('uploading');
    const created = await createStillUploadAction({
      filename: file.name,
      content_type: file.type,
      duration_seconds: duration,
      fps,
      motion,
      ...request(),
    });
    if (!created.ok) {
      setBusy(null);
      return setError(created.error);
    }
    try {
      await uploadWithProgress(samePath(created.uploadUrl), file, created.headers, () => undefined);
      setJobId(created.jobId);
    } catch (err) {
      setError((err as Error).message);
    }
    setBusy(null);
  }

  async function start() {
    if (!jobId) return;
    setBusy('starting');
    const r = await startJobAction(jobId, request());
    if (r.ok) router.push(`/jobs/${jobId}`);
    else {
      setError(r.error);
      setBusy(null);
    }
  }

  const locked = Boolean(jobId) || busy !== null;
  return (
    <FormWithSummary
      summary={
        <Card>
          <CardTitle>Summary</CardTitle>
          <p className="text-sm text-slate-600">
            A {duration} s clip at {fps} fps, charged per second of output.
          </p>
          <p className="mt-2 text-lg font-semibold text-slate-900" data-testid="still-cost">
            {quote ? formatCredits(quote.credits) : '—'}
          </p>
          <div className="mt-4 space-y-3">
            {error ? <Alert tone="error">{error}</Alert> : null}
            <Button
              className="w-full"
              size="lg"
              disabled={!quote || busy !== null || quote.balance < quote.credits}
              onClick={() => void start()}
            >
              {busy === 'starting'
                ? 'Starting…'
                : quote
                  ? `Start — ${formatCredits(quote.credits)}`
                  : 'Upload an image first'}
            </Button>
          </div>
        </Card>
      }
    >
      <ClipCard
        duration={duration}
        fps={fps}
        motion={motion}
        locked={locked}
        onDuration={setDuration}
        onFps={setFps}
        onMotion={setMotion}
      />

      <ModelCard model={model} stickers={stickers} onModel={setModel} onStickers={setStickers} />

      <Card>
        <CardTitle description="PNG, JPEG or WebP.">3. Your image</CardTitle>
        {jobId ? (
          <p className="text-sm text-slate-700">The image is uploaded.</p>
        ) : (
          <Dropzone
            accept="image/png,image/jpeg,image/webp"
            label={busy === 'uploading' ? 'Uploading…' : 'Choose an image'}
            onFile={(f) => void onFile(f)}
            disabled={busy !== null}
          />
        )}
      </Card>
    </FormWithSummary>
  );
}

/** The clip's length, frame rate and camera move, fixed once the image is uploaded. */
function ClipCard({
  duration,
  fps,
  motion,
  locked,
  onDuration,
  onFps,
  onMotion,
}: {
  duration: number;
  fps: number;
  motion: (typeof MOTIONS)[number];
  locked: boolean;
  onDuration: (seconds: number) => void;
  onFps: (fps: number) => void;
  onMotion: (motion: (typeof MOTIONS)[number]) => void;
}) {
  return (
    <Card>
      <CardTitle
        description={'Length, frame rate and camera move are set when the image is uploaded.'}
      >
        1. The clip
      </CardTitle>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="still-duration" label={`Length: ${duration} s`}>
          <input
            id="still-duration"
            type="range"
            min={STILL_LIMITS.minSeconds}
            max={STILL_LIMITS.maxSeconds}
            value={duration}
            disabled={locked}
            onChange={(e) => onDuration(Number(e.target.value))}
            className="w-full accent-indigo-600"
          />
        </Field>
        <Field id="still-fps" label="Frame rate">
          <ChoiceSelect
            id="still-fps"
            value={fps}
            disabled={locked}
            onChange={(e) => onFps(Number(e.target.value))}
            choices={FPS_CHOICES}
          />
        </Field>
        <Field id="still-motion" label="Camera move">
          <ChoiceSelect
            id="still-motion"
            value={motion}
            disabled={locked}
            onChange={(e) => onMotion(e.target.value as (typeof MOTIONS)[number])}
            choices={MOTION_CHOICES}
          />
        </Field>
      </div>
    </Card>
  );
}

/** The model the image is segmented with, and the stickers made of the clip. */
function ModelCard({
  model,
  stickers,
  onModel,
  onStickers,
}: {
  model: string;
  stickers: string[];
  onModel: (model: string) => void;
  onStickers: (formats: string[]) => void;
}) {
  return (
    <Card>
      <CardTitle>2. Model and stickers</CardTitle>
      <Field id="still-model" label="Model">
        <ChoiceSelect
          id="still-model"
          value={model}
          onChange={(e) => onModel(e.target.value)}
          choices={MODEL_CHOICES}
        />
      </Field>
      <fieldset className="mt-4">
        <legend className="mb-2 text-sm font-medium text-slate-800">
          Stickers made with it (free)
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {STICKERS.map((f) => (
            <label key={f.id} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                checked={stickers.includes(f.id)}
                onChange={(e) =>
                  onStickers(
                    e.target.checked ? [...stickers, f.id] : stickers.filter((x) => x !== f.id),
                  )
                }
                className="h-4 w-4 rounded border-slate-300"
              />
              {f.label}
            </label>
          ))}
        </div>
      </fieldset>
    </Card>
  );
}
