import type { JobListItem } from '@/lib/services/jobs/list-jobs';

/**
 * The result's own look: a frame of a colour, blur or composition result; the cut-out over a
 * checkerboard for transparent outputs; the source frame while nothing else exists yet.
 */
export function JobThumbnail({ job }: { job: JobListItem }) {
  const media = 'h-full w-full object-contain';
  /* eslint-disable @next/next/no-img-element -- signed, short-lived URLs */
  if (job.posterUrl)
    return <img src={job.posterUrl} alt="" className={`${media} bg-slate-200`} loading="lazy" />;
  const colour =
    job.background?.type === 'color' && job.background.color
      ? job.background.color.slice(0, 7)
      : null;
  if (job.transparentThumbnailUrl && (colour || job.background?.type !== 'blur')) {
    return (
      <div
        className={`h-full ${colour ? '' : 'checkerboard'}`}
        style={colour ? { backgroundColor: colour } : undefined}
      >
        <img src={job.transparentThumbnailUrl} alt="" className={media} loading="lazy" />
      </div>
    );
  }
  if (job.thumbnailUrl)
    return <img src={job.thumbnailUrl} alt="" className={`${media} bg-slate-200`} loading="lazy" />;
  return (
    <div className="checkerboard flex h-full items-center justify-center text-sm text-slate-700">
      {job.status === 'failed' ? 'No result' : 'No preview yet'}
    </div>
  );
  /* eslint-enable @next/next/no-img-element */
}
