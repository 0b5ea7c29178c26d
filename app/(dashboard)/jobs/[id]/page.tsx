import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DeleteJob } from '@/components/jobs/delete-job';
import { ExportsPanel } from '@/components/jobs/exports-panel';
import { JobLive } from '@/components/jobs/job-live';
import { MaskVersionsPanel } from '@/components/jobs/mask-versions-panel';
import { JobStatusBadge } from '@/components/jobs/status-badge';
import { WebhookHistory } from '@/components/jobs/webhook-history';
import { BeforeAfter } from '@/components/media/before-after';
import { buttonClass, LinkButton } from '@/components/ui/button';
import { Alert, Card, CardTitle, EmptyState } from '@/components/ui/card';
import { formatBytes, formatDate, formatSeconds } from '@/components/format';
import { API_MODEL_ROWS } from '@/engine/api-models';
import { requireUser } from '@/lib/auth/current-user';
import { getJobDetail } from '@/lib/services/dashboard/get-job-detail';
import { ServiceError } from '@/lib/errors';
import { listJobExports } from '@/lib/services/exports';
import { priceJob } from '@/lib/billing/pricing';
import { listMaskVersions, listRefinements } from '@/lib/services/refinements';
import { listWebhookDeliveries } from '@/lib/services/list-webhook-deliveries';

export const metadata: Metadata = { title: 'Job — Keyout' };

const IMAGE_FORMATS = new Set(['gif', 'webp', 'apng']);
const BROWSER_VIDEO = new Set(['webm_vp9', 'stacked_video', 'stacked_video_mask_inverted', 'mask_video', 'mask_video_inverted', 'mp4', 'webm']);


export default async function JobPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireUser(`/jobs/${id}`);
  let detail;
  try {
    detail = await getJobDetail(user.id, id);
  } catch (err) {
    if (err instanceof ServiceError && err.kind === 'not_found') notFound();
    throw err;
  }
  const { status: s } = detail;
  const history = s.status === 'created' || s.status === 'uploaded' ? null : await listWebhookDeliveries(user.id, id);
  const exports = s.status === 'completed' ? await listJobExports(user.id, id) : null;
  // Mask refinement (issue 26): the versions panel beside the exports.
  const masks = s.status === 'completed' ? { versions: await listMaskVersions(user.id, id), refinements: await listRefinements(user.id, id) } : null;
  const textModels = API_MODEL_ROWS.filter((m) => m.textPrompts).sort((a, b) => a.creditsPerSecond - b.creditsPerSecond);
  const running = s.status === 'processing';
  const format = s.output_format ?? 'webm_vp9';
  const result = detail.downloads.find((d) => d.label === 'Result');

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-3 text-sm">
        <Link href="/jobs" className="text-slate-600 hover:text-slate-900">
          ← All jobs
        </Link>
      </nav>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-semibold tracking-tight text-slate-900">{s.filename}</h1>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <JobStatusBadge status={s.status} />
            <span>Created {formatDate(s.created_at)}</span>
          </div>
        </div>
        <div className="flex shrink-0 gap-2">
          <DeleteJob jobId={s.id} filename={s.filename} />
        </div>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_300px]">
        <div className="space-y-6">
          {running ? (
            <Card>
              <CardTitle>Processing</CardTitle>
              <JobLive jobId={s.id} initial={s} />
            </Card>
          ) : null}
          {s.status === 'created' ? (
            <EmptyState title="Waiting for the video" action={<LinkButton href="/jobs/new">Upload a video</LinkButton>}>
              This job was created but its video never arrived. Upload it with the API or start a new job here.
            </EmptyState>
          ) : null}
          {s.status === 'uploaded' ? (
            <Alert tone="info">This video is uploaded but was not started. Start it through the API with POST /v1/jobs/{s.id}/start.</Alert>
          ) : null}
          {s.status === 'failed' ? (
            <Alert tone="error">
              <p className="font-medium">The job failed.</p>
              <p className="mt-1">{s.message ?? 'No reason was given.'}</p>
              {detail.creditsUsed ? <p className="mt-1">The {detail.creditsUsed} credits it was charged were refunded.</p> : null}
            </Alert>
          ) : null}

          {s.status === 'completed' && result ? (
            <Card>
              <CardTitle>Preview</CardTitle>
              {IMAGE_FORMATS.has(format) ? (
                <BeforeAfter before={null} after={result.url} kind="image" width={detail.width} height={detail.height} />
              ) : BROWSER_VIDEO.has(format) ? (
                <BeforeAfter before={detail.sourceUrl} after={result.url} width={detail.width} height={detail.height} />
              ) : s.transparent_thumbnail_url ? (
                <div className="checkerboard rounded-lg ring-1 ring-slate-200">
                  {/* eslint-disable-next-line @next/next/no-img-element -- signed URL */}
                  <img src={s.transparent_thumbnail_url} alt="First frame of the result" className="mx-auto max-h-[60vh]" />
                  <p className="bg-white/80 p-2 text-center text-xs text-slate-600">Browsers cannot play {format}; download it to view it.</p>
                </div>
              ) : null}
            </Card>
          ) : null}

          {s.status === 'completed' ? (
            <Card>
              <CardTitle description="Signed links, valid for one hour; reload the page for fresh ones.">Downloads</CardTitle>
              <ul className="divide-y divide-slate-100">
                {detail.downloads.map((d) => (
                  <li key={d.url} className="flex flex-wrap items-center justify-between gap-3 py-3">
                    <div className="min-w-0 flex-1 basis-48">
                      <p className="font-medium text-slate-900">{d.label}</p>
                      <p className="truncate text-xs text-slate-500">
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
          ) : null}

          {masks ? (
            <MaskVersionsPanel
              jobId={s.id}
              versions={masks.versions}
              refinements={masks.refinements}
              textModels={textModels.map(({ id: model, label, creditsPerSecond }) => ({ id: model, label, creditsPerSecond }))}
              credits={Object.fromEntries(textModels.map((m) => [m.id, priceJob({ model: m.id, durationSeconds: s.length_seconds ?? 0, fps: detail.fps ?? 30 })]))}
            />
          ) : null}

          {s.status === 'completed' && exports ? <ExportsPanel jobId={s.id} exports={exports.exports} maskVersions={exports.maskVersions} /> : null}

          {history ? (
            <Card>
              <CardTitle description={history.total_deliveries ? `${history.total_deliveries} attempt${history.total_deliveries === 1 ? '' : 's'}` : undefined}>
                Webhook deliveries
              </CardTitle>
              {history.total_deliveries ? (
                <WebhookHistory deliveries={history.deliveries} />
              ) : (
                <p className="text-sm text-slate-600">No webhook URL was given when this job started.</p>
              )}
            </Card>
          ) : null}
        </div>

        <aside>
          <Card>
            <CardTitle>Details</CardTitle>
            <dl className="space-y-2 text-sm">
              {(
                [
                  ['Model', detail.model ? (API_MODEL_ROWS.find((m) => m.id === detail.model)?.label ?? detail.model) : '—'],
                  ['Output', s.output_format ?? (detail.model ? 'webm_vp9' : '—')],
                  ['Duration', formatSeconds(s.length_seconds)],
                  ['Frames', detail.frameCount ? `${detail.frameCount} at ${Math.round((detail.fps ?? 0) * 100) / 100} fps` : '—'],
                  ['Resolution', detail.width ? `${detail.width}×${detail.height}` : '—'],
                  ['Original size', formatBytes(detail.sourceBytes)],
                  ['Credits', detail.creditsUsed != null ? String(detail.creditsUsed) : '—'],
                  ['Started', formatDate(detail.startedAt)],
                  ['Finished', formatDate(detail.completedAt)],
                ] as const
              ).map(([k, v]) => (
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
        </aside>
      </div>
    </>
  );
}
