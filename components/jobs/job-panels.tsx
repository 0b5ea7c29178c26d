import { BeforeAfter } from '@/components/media/before-after';
import { buttonClass } from '@/components/ui/button';
import { Alert, Card, CardTitle } from '@/components/ui/card';
import { formatBytes, formatDate, formatSeconds } from '@/components/format';
import { DEFAULT_FORMAT, OUTPUT_FORMATS } from '@/engine/formats';
import type { DownloadItem, JobDetail } from '@/lib/services/jobs/get-job-detail';
import type { listWebhookDeliveries } from '@/lib/services/webhooks/list-webhook-deliveries';
import { describeOutput, modelName } from './describe-output';
import { RetryJob } from './retry-job';
import { WebhookHistory } from './webhook-history';

/** The panels of the job page, one per concern (the page picks those that fit the job's state). */

// How the preview shows a format: animations as images, WebM and MP4 in a <video>, the rest as a
// still.
const IMAGE_FORMATS = new Set<string>(OUTPUT_FORMATS.filter((f) => f.loop).map((f) => f.id));
const BROWSER_VIDEO = new Set<string>(
  OUTPUT_FORMATS.filter((f) => f.container === 'webm' || f.container === 'mp4').map((f) => f.id),
);

export function JobFailed({
  jobId,
  message,
  refunded,
}: {
  jobId: string;
  message: string | null;
  refunded: number | null;
}) {
  return (
    <Card>
      <CardTitle>The job failed</CardTitle>
      <Alert tone="error">
        <p>{message ?? 'No reason was given.'}</p>
        {refunded ? (
          <p className="mt-1">The {refunded} credits it was charged were refunded.</p>
        ) : null}
      </Alert>
      <div className="mt-4">
        <RetryJob jobId={jobId} />
      </div>
    </Card>
  );
}

export function JobResultPreview({ detail }: { detail: JobDetail }) {
  const { status: s } = detail;
  const result = detail.downloads.find((d) => d.label === 'Result');
  if (!result) return null;
  const format = s.output_format ?? DEFAULT_FORMAT;
  return (
    <Card>
      <CardTitle>Preview</CardTitle>
      {IMAGE_FORMATS.has(format) ? (
        <BeforeAfter
          before={null}
          after={result.url}
          kind="image"
          width={detail.width}
          height={detail.height}
        />
      ) : BROWSER_VIDEO.has(format) ? (
        <BeforeAfter
          before={detail.sourceUrl}
          after={result.url}
          width={detail.width}
          height={detail.height}
        />
      ) : s.transparent_thumbnail_url ? (
        <div className="checkerboard rounded-lg ring-1 ring-slate-200">
          {/* eslint-disable-next-line @next/next/no-img-element -- signed URL */}
          <img
            src={s.transparent_thumbnail_url}
            alt="A frame of the result"
            className="mx-auto max-h-[60vh]"
          />
          <p className="bg-white/80 p-2 text-center text-xs text-slate-700">
            Browsers cannot play {format}; download it to view it.
          </p>
        </div>
      ) : null}
    </Card>
  );
}

export function JobDownloads({ downloads }: { downloads: DownloadItem[] }) {
  return (
    <Card>
      <CardTitle description="Signed links, valid for one hour; reload the page for fresh ones.">
        Downloads
      </CardTitle>
      <ul className="divide-y divide-slate-100">
        {downloads.map((d) => (
          <li key={d.url} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0 flex-1 basis-48">
              <p className="font-medium text-slate-900">{d.label}</p>
              <p className="truncate text-xs text-slate-600" title={d.filename}>
                {d.filename} · {d.format} · {formatBytes(d.bytes)}
              </p>
            </div>
            <a href={d.url} download={d.filename} className={buttonClass('secondary', 'sm')}>
              Download<span className="sr-only"> {d.label}</span>
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function JobWebhooks({
  history,
}: {
  history: Awaited<ReturnType<typeof listWebhookDeliveries>>;
}) {
  return (
    <Card>
      <CardTitle
        description={
          history.total_deliveries
            ? `${history.total_deliveries} attempt${history.total_deliveries === 1 ? '' : 's'}`
            : undefined
        }
      >
        Webhook deliveries
      </CardTitle>
      {history.total_deliveries ? (
        <WebhookHistory deliveries={history.deliveries} />
      ) : (
        <p className="text-sm text-slate-600">No webhook URL was given when this job started.</p>
      )}
    </Card>
  );
}

export function JobDetails({ detail }: { detail: JobDetail }) {
  const { status: s } = detail;
  const rows: [string, string][] = [
    ['Model', modelName(detail.model) ?? '—'],
    [
      'Output',
      describeOutput({
        model: detail.model,
        outputFormat: s.output_format ?? null,
        background: detail.background,
      }) ?? '—',
    ],
    ['Duration', formatSeconds(s.length_seconds)],
    [
      'Frames',
      detail.frameCount
        ? `${detail.frameCount} at ${Math.round((detail.fps ?? 0) * 100) / 100} fps`
        : '—',
    ],
    ['Resolution', detail.width ? `${detail.width}×${detail.height}` : '—'],
    ['Original size', formatBytes(detail.sourceBytes)],
    ['Credits', detail.creditsUsed != null ? String(detail.creditsUsed) : '—'],
    ['Started', formatDate(detail.startedAt)],
    ['Finished', formatDate(detail.completedAt)],
  ];
  return (
    <Card>
      <CardTitle>Details</CardTitle>
      <dl className="space-y-2 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="flex justify-between gap-4">
            <dt className="text-slate-600">{k}</dt>
            <dd className="text-right text-slate-900">{v}</dd>
          </div>
        ))}
        <div className="border-t border-slate-100 pt-2">
          <dt className="text-slate-600">Job id</dt>
          <dd className="mt-0.5 font-mono text-xs break-all text-slate-900">{s.id}</dd>
        </div>
      </dl>
    </Card>
  );
}
