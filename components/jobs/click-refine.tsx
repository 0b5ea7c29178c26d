'use client';

import {
  useActionState,
  useCallback,
  useEffect,
  useRef,
  useState,
  type MouseEvent,
  type RefObject,
} from 'react';
import { refineAction, type RefineState } from '@/app/(dashboard)/jobs/[id]/refine-actions';
import {
  RefineOptions,
  RefineSubmit,
  type RefineModelChoice,
} from '@/components/jobs/refine-options';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { fitLongSide } from '@/engine/matte/image';
import { MAX_CLICK_POINTS } from '@/engine/prompts/click-track';
import type { SamPoint } from '@/engine/prompts/sam';
import type { PreviewMask, SamPreview } from '@/workers/browser/sam-preview';

export interface ClickSource {
  url: string;
  width: number;
  height: number;
  fps: number;
  frameCount: number;
}

/** SAM reads pictures at 1024 on the long side: the frame is drawn at that size, no larger. */
const PICTURE_SIDE = 1024;
const TINT: [number, number, number] = [124, 58, 237];

type Status =
  | { kind: 'idle' }
  | { kind: 'busy'; text: string }
  | { kind: 'ready'; text: string }
  | { kind: 'error'; text: string };

/** Draws SAM's mask in violet and the points (green on the object, red off it) over the picture. */
function drawOverlay(
  canvas: HTMLCanvasElement,
  {
    mask,
    points,
    cw,
    ch,
    width,
    height,
  }: {
    mask: PreviewMask | null;
    points: SamPoint[];
    cw: number;
    ch: number;
    width: number;
    height: number;
  },
) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, cw, ch);
  if (mask) {
    const img = ctx.createImageData(mask.width, mask.height);
    for (let i = 0; i < mask.alpha.length; i++) {
      if (!mask.alpha[i]) continue;
      img.data.set([...TINT, 130], i * 4);
    }
    ctx.putImageData(img, 0, 0);
  }
  // About 6 screen pixels whatever the picture's displayed size.
  const r = (6 * cw) / Math.max(1, canvas.clientWidth);
  for (const p of points) {
    ctx.beginPath();
    ctx.arc((p.x * cw) / width, (p.y * ch) / height, r, 0, 2 * Math.PI);
    ctx.fillStyle = p.include ? '#059669' : '#e11d48';
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
  }
}

/**
 * Refine by clicking: pick a frame, click on the object (include) or next to it (exclude), see
 * SAM's mask for that frame at once, computed in this browser (workers/browser/sam-preview.ts:
 * the same models the worker uses, loaded on the first click), then apply it to the whole video
 * as a `prompt.mode: "points"` refinement through the same action and rules as a text prompt.
 */
export function ClickRefine({
  jobId,
  source,
  activeVersion,
  running,
  models,
}: {
  jobId: string;
  source: ClickSource;
  activeVersion: number | null;
  running: boolean;
  models: RefineModelChoice[];
}) {
  const [result, apply, pending] = useActionState<RefineState, FormData>(
    refineAction.bind(null, jobId),
    null,
  );
  const [frame, setFrame] = useState(0);
  const [points, setPoints] = useState<SamPoint[]>([]);
  const [include, setInclude] = useState(true);
  const [unplayable, setUnplayable] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const pictureRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const [cw, ch] = fitLongSide(source.width, source.height, PICTURE_SIDE);
  const time = (frame + 0.5) / source.fps;
  const { status, mask, preview, reset } = useSamPreview(
    pictureRef,
    cw,
    ch,
    source.width,
    source.height,
  );

  // Shows the picked frame: the video is seeked to the middle of its display interval.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const draw = () => pictureRef.current?.getContext('2d')?.drawImage(video, 0, 0, cw, ch);
    const seek = () => {
      if (Math.abs(video.currentTime - time) < 1e-3 && video.readyState >= 2) draw();
      else video.currentTime = time;
    };
    video.addEventListener('seeked', draw);
    if (video.readyState >= 1) seek();
    else video.addEventListener('loadedmetadata', seek, { once: true });
    reset();
    setPoints([]);
    return () => {
      video.removeEventListener('seeked', draw);
      video.removeEventListener('loadedmetadata', seek);
    };
  }, [time, cw, ch, reset]);

  // The preview and the points over the picture.
  useEffect(() => {
    const canvas = overlayRef.current;
    if (canvas)
      drawOverlay(canvas, { mask, points, cw, ch, width: source.width, height: source.height });
  }, [mask, points, cw, ch, source.width, source.height]);

  const onClick = (e: MouseEvent<HTMLCanvasElement>) => {
    if (points.length >= MAX_CLICK_POINTS) return;
    const box = e.currentTarget.getBoundingClientRect();
    const x = Math.round(((e.clientX - box.left) / box.width) * source.width * 10) / 10;
    const y = Math.round(((e.clientY - box.top) / box.height) * source.height * 10) / 10;
    const next = [...points, { x, y, include }];
    setPoints(next);
    void preview(next);
  };
  const change = (next: SamPoint[]) => {
    setPoints(next);
    void preview(next);
  };

  const hasInclude = points.some((p) => p.include);
  return (
    <div className="space-y-4">
      <FrameSlider frame={frame} frameCount={source.frameCount} time={time} onChange={setFrame} />
      <ClickKindPicker include={include} onChange={setInclude} />
      {unplayable ? (
        <Alert tone="info">
          This browser cannot show the original&apos;s frames, so there is nothing to click on here.
          The API takes points all the same (prompt.mode &quot;points&quot;).
        </Alert>
      ) : null}
      <div
        className={
          'relative overflow-hidden rounded-lg border border-slate-200 ' +
          `bg-slate-900 ${unplayable ? 'hidden' : ''}`
        }
        style={{ aspectRatio: `${cw} / ${ch}` }}
      >
        <video
          ref={videoRef}
          src={source.url}
          crossOrigin="anonymous"
          muted
          playsInline
          preload="auto"
          className="hidden"
          onError={() => setUnplayable(true)}
        />
        <canvas
          ref={pictureRef}
          width={cw}
          height={ch}
          className="absolute inset-0 h-full w-full"
          aria-hidden="true"
        />
        <canvas
          ref={overlayRef}
          width={cw}
          height={ch}
          onClick={onClick}
          className="absolute inset-0 h-full w-full cursor-crosshair"
          role="img"
          aria-label={
            `Frame ${frame + 1}: click on the object to mark ` +
            `it${mask ? '; its mask is shown in violet' : ''}`
          }
          data-testid="click-picture"
        />
      </div>
      <p
        role="status"
        aria-live="polite"
        className={`text-sm ${status.kind === 'error' ? 'text-rose-700' : 'text-slate-600'}`}
      >
        {status.kind === 'idle' ? 'Click on the object in the picture.' : status.text}
      </p>
      {points.length ? <PointsBar points={points} onChange={change} /> : null}
      <form action={apply} aria-label="Refine by clicking" className="grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="mode" value="points" />
        <input type="hidden" name="time" value={time.toFixed(4)} />
        <input type="hidden" name="points" value={JSON.stringify(points)} />
        <input type="hidden" name="from_version" value={activeVersion ?? ''} />
        <RefineOptions idPrefix="click" models={models} />
        <RefineSubmit
          label="Apply to the whole video"
          ready={hasInclude}
          pending={pending}
          running={running}
          result={result}
        />
      </form>
    </div>
  );
}

/** The frame to click on, by its number and time. */
function FrameSlider({
  frame,
  frameCount,
  time,
  onChange,
}: {
  frame: number;
  frameCount: number;
  time: number;
  onChange: (frame: number) => void;
}) {
  return (
    <Field
      id="click-frame"
      label={`Frame ${frame + 1} of ${frameCount} · ${time.toFixed(2)} s`}
      hint="Pick a frame where the object is clear, then click on it."
    >
      <input
        id="click-frame"
        type="range"
        min={0}
        max={Math.max(0, frameCount - 1)}
        step={1}
        value={frame}
        onChange={(e) => onChange(Number(e.target.value))}
        className="w-full accent-indigo-600"
      />
    </Field>
  );
}

/** Whether the next click marks the object or what is not part of it. */
function ClickKindPicker({
  include,
  onChange,
}: {
  include: boolean;
  onChange: (include: boolean) => void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-800">
      <legend className="mb-1.5 w-full text-sm font-medium text-slate-800">A click marks</legend>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="click-kind"
          checked={include}
          onChange={() => onChange(true)}
          className="h-4 w-4"
        />{' '}
        part of the object
      </label>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="click-kind"
          checked={!include}
          onChange={() => onChange(false)}
          className="h-4 w-4"
        />{' '}
        not part of it
      </label>
    </fieldset>
  );
}

/** How many points there are, and undoing the last one or clearing them. */
function PointsBar({
  points,
  onChange,
}: {
  points: SamPoint[];
  onChange: (points: SamPoint[]) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-slate-700">
        {points.length} point{points.length === 1 ? '' : 's'} (
        {points.filter((p) => p.include).length} on the object)
      </span>
      <Button variant="secondary" size="sm" onClick={() => onChange(points.slice(0, -1))}>
        Undo last point
      </Button>
      <Button variant="secondary" size="sm" onClick={() => onChange([])}>
        Clear points
      </Button>
    </div>
  );
}

/**
 * SAM's mask for points on the picture, computed in this browser (the model loads, and the
 * picture is encoded, on first use), and what the preview says meanwhile. `reset` forgets the
 * encoded picture and the mask when another frame is shown.
 */
function useSamPreview(
  pictureRef: RefObject<HTMLCanvasElement | null>,
  cw: number,
  ch: number,
  width: number,
  height: number,
) {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [mask, setMask] = useState<PreviewMask | null>(null);
  const previewRef = useRef<SamPreview | null>(null);
  /** The frame whose picture SAM has encoded, once it has. */
  const encodedRef = useRef<Promise<void> | null>(null);
  useEffect(() => () => previewRef.current?.dispose(), []);
  const reset = useCallback(() => {
    encodedRef.current = null;
    setMask(null);
  }, []);
  const preview = useCallback(
    async (next: SamPoint[]) => {
      if (!next.some((p) => p.include)) {
        setMask(null);
        setStatus({ kind: 'ready', text: 'Add a point on the object to see its mask.' });
        return;
      }
      try {
        if (!previewRef.current) {
          const { SamPreview } = await import('@/workers/browser/sam-preview');
          previewRef.current = new SamPreview();
        }
        const sam = previewRef.current;
        if (!encodedRef.current) {
          setStatus({
            kind: 'busy',
            text: 'Reading the frame (the click model loads once, about 45 MB)…',
          });
          const picture = pictureRef.current!.getContext('2d')!.getImageData(0, 0, cw, ch);
          encodedRef.current = sam.encode(picture).then(() => undefined);
        }
        await encodedRef.current;
        const m = await sam.mask(
          next.map((p) => ({ x: (p.x * cw) / width, y: (p.y * ch) / height, include: p.include })),
        );
        const share = m.alpha.reduce((n, v) => n + (v ? 1 : 0), 0) / m.alpha.length;
        setMask(m);
        setStatus({
          kind: 'ready',
          text: `Preview: the object covers ${(share * 100).toFixed(1)} % of this frame.`,
        });
      } catch (err) {
        encodedRef.current = null;
        setStatus({
          kind: 'error',
          text:
            'The preview could not be made here ' +
            `(${err instanceof Error ? err.message : String(err)}); the ` +
            'points can still be applied.',
        });
      }
    },
    [pictureRef, cw, ch, width, height],
  );
  return { status, mask, preview, reset };
}
