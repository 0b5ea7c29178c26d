import { buttonClass } from '@/components/ui/button';
import { formatBytes } from '@/components/format';
import type { StudioResult } from '@/workers/browser/studio-pipeline';
import { StudioProfileTable } from './profile';

/** How a finished result describes itself under its download button. */
function describeResult(r: StudioResult): string {
  const video =
    r.file.type === 'video/mp4'
      ? 'H.264 MP4'
      : r.file === r.cutout.file
        ? 'VP9 with alpha in WebM'
        : 'VP9 WebM';
  const sound = r.file.type === 'video/mp4' ? 'AAC' : 'Opus';
  return r.cutout.hasAudio
    ? `${video}, with the sound (${sound}).`
    : `${video}; the video has no sound this browser can read.`;
}

/**
 * A finished video: its download (and the transparent one beside an MP4 or WebM), and how the run
 * went.
 */
export function RunResult({
  result,
  url,
  cutoutUrl,
  baseName,
}: {
  result: StudioResult;
  url: string;
  cutoutUrl: string | null;
  baseName: string;
}) {
  const resultIsMp4 = result.file.type === 'video/mp4';
  const downloadName = `${baseName}.${resultIsMp4 ? 'mp4' : 'webm'}`;
  return (
    <div className="space-y-3 border-t border-slate-100 pt-4">
      <a
        href={url}
        download={downloadName}
        className={
          'inline-flex h-12 w-full items-center justify-center rounded-lg ' +
          'bg-emerald-700 px-6 font-medium text-white shadow-sm ' +
          'hover:bg-emerald-600 focus-visible:outline-2 ' +
          'focus-visible:outline-offset-2 ' +
          'focus-visible:outline-emerald-700'
        }
      >
        Download {resultIsMp4 ? 'MP4' : 'WebM'} ({formatBytes(result.file.size)})
      </a>
      <dl
        className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs text-slate-600"
        data-testid="studio-stats"
      >
        <dt>Frames</dt>
        <dd className="text-right tabular-nums">{result.frames}</dd>
        <dt>Per frame</dt>
        <dd className="text-right tabular-nums" data-testid="studio-frame-ms">
          {result.meanFrameMs.toFixed(1)} ms
        </dd>
        <dt>Total time</dt>
        <dd className="text-right tabular-nums" data-testid="studio-total-ms">
          {(result.totalMs / 1000).toFixed(1)} s
        </dd>
        <dt>Model runs</dt>
        <dd className="text-right tabular-nums">
          {result.engine.inferences} ·{' '}
          {(
            (result.engine.stageSeconds.infer * 1000) /
            Math.max(1, result.engine.inferences)
          ).toFixed(0)}{' '}
          ms each
        </dd>
        <dt>Refinement</dt>
        <dd className="text-right tabular-nums">
          {((result.engine.stageSeconds.refine * 1000) / result.frames).toFixed(0)} ms/frame
        </dd>
        <dt>Model</dt>
        <dd className="text-right" data-testid="studio-model">
          {result.modelName}
        </dd>
        <dt>Engine</dt>
        <dd className="text-right">{result.runtime}</dd>
      </dl>
      {result.modelReason ? (
        <p className="text-xs text-slate-600" data-testid="studio-model-reason">
          {result.modelReason}
        </p>
      ) : null}
      <StudioProfileTable profile={result.profile} />
      <p className="text-xs text-slate-500" data-testid="studio-result-kind">
        {describeResult(result)}
      </p>
      {result.file !== result.cutout.file ? (
        <a
          href={cutoutUrl ?? undefined}
          download={`${baseName}-transparent.webm`}
          className={`${buttonClass('secondary', 'sm')} h-auto min-h-8 w-full py-1.5 text-center`}
        >
          Download the transparent WebM ({formatBytes(result.cutout.file.size)})
        </a>
      ) : null}
    </div>
  );
}
