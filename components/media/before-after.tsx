'use client';

import { useEffect, useId, useRef, useState } from 'react';

/**
 * The result over a checkerboard or a chosen colour, with the original underneath: drag the
 * slider (or use the arrow keys on it) to wipe between before and after. Both videos play in
 * step; the original is muted.
 */
export function BeforeAfter({ before, after, kind = 'video' }: { before: string | null; after: string; kind?: 'video' | 'image' }) {
  const [split, setSplit] = useState(50);
  const [backdrop, setBackdrop] = useState<'checker' | 'color'>('checker');
  const [color, setColor] = useState('#16a34a');
  const a = useRef<HTMLVideoElement>(null);
  const b = useRef<HTMLVideoElement>(null);
  const sliderId = useId();

  useEffect(() => {
    const main = a.current;
    const under = b.current;
    if (!main || !under) return;
    const sync = () => {
      if (Math.abs(under.currentTime - main.currentTime) > 0.08) under.currentTime = main.currentTime;
    };
    const play = () => void under.play().catch(() => undefined);
    const pause = () => under.pause();
    main.addEventListener('timeupdate', sync);
    main.addEventListener('seeked', sync);
    main.addEventListener('play', play);
    main.addEventListener('pause', pause);
    return () => {
      main.removeEventListener('timeupdate', sync);
      main.removeEventListener('seeked', sync);
      main.removeEventListener('play', play);
      main.removeEventListener('pause', pause);
    };
  }, []);

  const showBefore = Boolean(before) && kind === 'video';
  return (
    <div>
      <div
        className={`relative overflow-hidden rounded-lg ring-1 ring-slate-200 ${backdrop === 'checker' ? 'checkerboard' : ''}`}
        style={backdrop === 'color' ? { backgroundColor: color } : undefined}
      >
        {kind === 'image' ? (
          // eslint-disable-next-line @next/next/no-img-element -- signed result URL
          <img src={after} alt="Result" className="mx-auto max-h-[70vh] w-full object-contain" />
        ) : (
          <video ref={a} src={after} controls loop playsInline className="relative z-10 mx-auto max-h-[70vh] w-full" aria-label="Result" />
        )}
        {showBefore ? (
          <div className="pointer-events-none absolute inset-0 z-20" style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }} aria-hidden="true">
            <video ref={b} src={before!} muted loop playsInline className="mx-auto max-h-[70vh] w-full bg-black" />
            <span className="absolute top-2 left-2 rounded bg-black/60 px-2 py-0.5 text-xs text-white">Before</span>
          </div>
        ) : null}
        {showBefore ? (
          <div className="pointer-events-none absolute inset-y-0 z-30 w-0.5 bg-white shadow" style={{ left: `${split}%` }} aria-hidden="true" />
        ) : null}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-4 text-sm">
        {showBefore ? (
          <div className="flex min-w-56 flex-1 items-center gap-2">
            <label htmlFor={sliderId} className="whitespace-nowrap text-slate-700">
              Before / after
            </label>
            <input id={sliderId} type="range" min={0} max={100} value={split} onChange={(e) => setSplit(Number(e.target.value))} className="w-full accent-indigo-600" />
          </div>
        ) : null}
        <fieldset className="flex items-center gap-3">
          <legend className="sr-only">Preview background</legend>
          <label className="flex items-center gap-1.5 text-slate-700">
            <input type="radio" name={`${sliderId}-bg`} checked={backdrop === 'checker'} onChange={() => setBackdrop('checker')} className="accent-indigo-600" />
            Checkerboard
          </label>
          <label className="flex items-center gap-1.5 text-slate-700">
            <input type="radio" name={`${sliderId}-bg`} checked={backdrop === 'color'} onChange={() => setBackdrop('color')} className="accent-indigo-600" />
            Colour
          </label>
          <input
            type="color"
            aria-label="Preview colour"
            value={color}
            onChange={(e) => {
              setColor(e.target.value);
              setBackdrop('color');
            }}
            className="h-8 w-10 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
          />
        </fieldset>
      </div>
    </div>
  );
}
