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
          <figure className="min-w-0">
            <video
              src={fileUrl ?? undefined}
              loop
              autoPlay
              muted
              playsInline
              className="max-h-[50vh] w-full bg-black"
              aria-label="Before: the original"
              data-testid="studio-before"
            />
            <figcaption className="mt-1 text-center text-xs font-medium text-slate-700">
              Before
            </figcaption>
          </figure>
          <figure className="min-w-0">
            <video
              src={phase.url}
              controls
              loop
              autoPlay
              muted
              playsInline
              className="max-h-[50vh] w-full"
              aria-label="After: the result"
              data-testid="studio-result"
            />
            <figcaption className="mt-1 text-center text-xs font-medium text-slate-700">
              After
            </figcaption>
          </figure>
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
