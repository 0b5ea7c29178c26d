'use client';

import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { BackdropPicker, useBackdrop } from './backdrop';

/**
 * The result over a checkerboard or a chosen colour, with the original on top clipped to the
 * left of a draggable split (a range input, so arrow keys work too). Both videos play in step
 * from one play button; the box keeps the video's aspect ratio, so nothing jumps while loading.
 */
export function BeforeAfter({
  before,
  after,
  kind = 'video',
  width,
  height,
}: {
  before: string | null;
  after: string;
  kind?: 'video' | 'image';
  width: number | null;
  height: number | null;
}) {
  const [split, setSplit] = useState(50);
  const backdrop = useBackdrop('#16a34a');
  const a = useRef<HTMLVideoElement>(null);
  const b = useRef<HTMLVideoElement>(null);
  const { playing, time, duration } = useSyncedPlayback(a, b);
  const id = useId();

  const showBefore = Boolean(before) && kind === 'video';
  const media = 'absolute inset-0 h-full w-full object-contain';
  return (
    <div>
      <div
        className={
          'relative mx-auto max-h-[65vh] overflow-hidden rounded-lg ' +
          `ring-1 ring-slate-200 ${backdrop.className}`
        }
        style={{
          aspectRatio: width && height ? `${width} / ${height}` : '16 / 9',
          ...backdrop.style,
        }}
      >
        {kind === 'image' ? (
          // eslint-disable-next-line @next/next/no-img-element -- signed result URL
          <img src={after} alt="Result" className={media} />
        ) : (
          <video
            ref={a}
            src={after}
            loop
            playsInline
            preload="auto"
            className={media}
            aria-label="Result"
          />
        )}
        {showBefore ? (
          <div
            className="pointer-events-none absolute inset-0"
            style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}
            aria-hidden="true"
          >
            <video ref={b} src={before!} muted loop playsInline preload="auto" className={media} />
            <span
              className={'absolute top-2 left-2 rounded bg-black/60 px-2 py-0.5 text-xs text-white'}
            >
              Before
            </span>
          </div>
        ) : null}
        {showBefore ? (
          <>
            <div
              className="pointer-events-none absolute inset-y-0 w-0.5 bg-white shadow"
              style={{ left: `${split}%` }}
              aria-hidden="true"
            />
            <span
              className={
                'pointer-events-none absolute top-2 right-2 rounded bg-black/60 ' +
                'px-2 py-0.5 text-xs text-white'
              }
              aria-hidden="true"
            >
              After
            </span>
          </>
        ) : null}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-3 text-sm">
        {kind === 'video' ? (
          <div className="flex min-w-64 flex-1 items-center gap-2">
            <button
              type="button"
              onClick={() => (playing ? a.current?.pause() : void a.current?.play())}
              className={
                'inline-flex h-8 w-8 shrink-0 items-center justify-center ' +
                'rounded-full bg-slate-900 text-white hover:bg-slate-700'
              }
              aria-label={playing ? 'Pause' : 'Play'}
            >
              <svg
                viewBox="0 0 16 16"
                className="h-3.5 w-3.5"
                fill="currentColor"
                aria-hidden="true"
              >
                {playing ? <path d="M4 3h3v10H4zM9 3h3v10H9z" /> : <path d="M4 2.5v11l9-5.5z" />}
              </svg>
            </button>
            <label htmlFor={`${id}-seek`} className="sr-only">
              Position
            </label>
            <input
              id={`${id}-seek`}
              type="range"
              min={0}
              max={duration || 0}
              step={0.01}
              value={time}
              onChange={(e) => {
                if (a.current) a.current.currentTime = Number(e.target.value);
              }}
              className="w-full accent-slate-900"
            />
            <span
              className="w-24 shrink-0 text-right text-xs text-slate-600 tabular-nums"
              data-testid="player-time"
            >
              {time.toFixed(1)} / {duration.toFixed(1)} s
            </span>
          </div>
        ) : null}
        {showBefore ? (
          <div className="flex min-w-56 flex-1 items-center gap-2">
            <label htmlFor={`${id}-split`} className="whitespace-nowrap text-slate-700">
              Before / after
            </label>
            <input
              id={`${id}-split`}
              type="range"
              min={0}
              max={100}
              value={split}
              onChange={(e) => setSplit(Number(e.target.value))}
              className="w-full accent-indigo-600"
            />
          </div>
        ) : null}
        <BackdropPicker name={`${id}-bg`} backdrop={backdrop} className="flex items-center gap-3" />
      </div>
    </div>
  );
}

/** Plays `under` in step with `main` (play, pause, seeks), and reports main's state. */
function useSyncedPlayback(
  mainRef: RefObject<HTMLVideoElement | null>,
  underRef: RefObject<HTMLVideoElement | null>,
) {
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  useEffect(() => {
    const main = mainRef.current;
    if (!main) return;
    const under = underRef.current;
    const sync = () => {
      setTime(main.currentTime);
      if (under && Math.abs(under.currentTime - main.currentTime) > 0.1)
        under.currentTime = main.currentTime;
    };
    const onPlay = () => {
      setPlaying(true);
      void under?.play().catch(() => undefined);
    };
    const onPause = () => {
      setPlaying(false);
      under?.pause();
    };
    // The metadata may have loaded before this effect ran (the video starts loading with the
    // page's HTML), so the duration is read now too, and again whenever it changes.
    const onMeta = () => setDuration(Number.isFinite(main.duration) ? main.duration : 0);
    onMeta();
    const listeners: [keyof HTMLMediaElementEventMap, () => void][] = [
      ['timeupdate', sync],
      ['seeked', sync],
      ['play', onPlay],
      ['pause', onPause],
      ['loadedmetadata', onMeta],
      ['durationchange', onMeta],
    ];
    for (const [event, listener] of listeners) main.addEventListener(event, listener);
    return () => {
      for (const [event, listener] of listeners) main.removeEventListener(event, listener);
    };
  }, [mainRef, underRef]);
  return { playing, time, duration };
}
