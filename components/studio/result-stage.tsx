import type { RefObject } from 'react';
import type { Backdrop } from '@/components/media/backdrop';
import type { Phase } from './use-studio-run';

/**
 * The live preview while running, then the first frame or the before/after pair, over the backdrop.
 */
export function ResultStage({
  phase,
  fileUrl,
  preview,
  backdrop,
}: {
  phase: Phase;
  /** The original, for the before side. */
  fileUrl: string | null;
  preview: RefObject<HTMLCanvasElement | null>;
  backdrop: Backdrop;
}) {
  const running = phase.kind === 'running';
  return (
    <div
      className={
        'relative flex min-h-48 items-center justify-center ' +
        'overflow-hidden rounded-lg ring-1 ring-slate-200 ' +
        `${backdrop.className}`
      }
      style={backdrop.style}
    >
      {phase.kind === 'done' && !phase.firstFrameOnly ? (
        <div
          className="grid w-full grid-cols-1 gap-2 p-2 sm:grid-cols-2"
          data-testid="studio-before-after"
        >
          <LoopingVideo
            caption="Before"
            src={fileUrl ?? undefined}
            className="bg-black"
            label="Before: the original"
            testId="studio-before"
          />
          <LoopingVideo
            caption="After"
            src={phase.url}
            controls
            label="After: the result"
            testId="studio-result"
          />
        </div>
      ) : phase.kind === 'done' ? (
        // eslint-disable-next-line @next/next/no-img-element -- a local object URL
        <img
          src={phase.url}
          alt="First frame without its background"
          className="max-h-[60vh]"
          data-testid="studio-first-frame"
        />
      ) : (
        <canvas
          ref={preview}
          className={`max-h-[60vh] max-w-full ${running ? '' : 'hidden'}`}
          aria-label="Live preview"
        />
      )}
      {phase.kind === 'idle' ? (
        <p className="p-6 text-center text-sm text-slate-500">
          The cut-out appears here as frames are processed.
        </p>
      ) : null}
      {phase.kind === 'failed' ? (
        <p className="p-6 text-center text-sm text-slate-500">No result.</p>
      ) : null}
    </div>
  );
}

/** One side of the before/after pair: a muted video that loops, captioned below. */
function LoopingVideo({
  caption,
  src,
  controls = false,
  className = '',
  label,
  testId,
}: {
  caption: string;
  src: string | undefined;
  controls?: boolean;
  className?: string;
  label: string;
  testId: string;
}) {
  return (
    <figure className="min-w-0">
      <video
        src={src}
        controls={controls}
        loop
        autoPlay
        muted
        playsInline
        className={`max-h-[50vh] w-full ${className}`.trim()}
        aria-label={label}
        data-testid={testId}
      />
      <figcaption className="mt-1 text-center text-xs font-medium text-slate-700">
        {caption}
      </figcaption>
    </figure>
  );
}
