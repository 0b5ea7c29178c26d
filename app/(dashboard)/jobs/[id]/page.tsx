import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DeleteJob } from '@/components/jobs/delete-job';
import { ExportsPanel } from '@/components/jobs/exports-panel';
import { choiceOf } from '@/components/jobs/job-options';
import {
  JobDetails,
  JobDownloads,
  JobFailed,
  JobResultPreview,
  JobWebhooks,
} from '@/components/jobs/job-panels';
import { JobLive } from '@/components/jobs/job-live';
import { MaskVersionsPanel } from '@/components/jobs/mask-versions-panel';
import { StartForm } from '@/components/jobs/start/start-form';
import { StickersPanel } from '@/components/jobs/stickers-panel';
import { JobStatusBadge } from '@/components/jobs/status-badge';
import { LinkButton } from '@/components/ui/button';
import { Alert, Card, CardTitle, EmptyState } from '@/components/ui/card';
import { formatDate } from '@/components/format';
import { isStickerFormat } from '@/engine/formats';
import { API_MODEL_ROWS } from '@/engine/api-models';
import { requireUser } from '@/lib/auth/current-user';
import { getJobDetail } from '@/lib/services/jobs/get-job-detail';
import { getJobProgress } from '@/lib/services/jobs/get-job-progress';
import { startOptionsOf } from '@/lib/services/jobs/retry-job';
import { ServiceError } from '@/lib/errors';
import { listJobExports } from '@/lib/services/outputs/exports';
import { priceJob } from '@/lib/billing/pricing';
import { listMaskVersions } from '@/lib/services/masks/list-mask-versions';
import { listRefinements } from '@/lib/services/refinements/request-refinement';
import { listWebhookDeliveries } from '@/lib/services/webhooks/list-webhook-deliveries';
import { defaultPorts } from '@/lib/services/ports';

export const metadata: Metadata = { title: 'Job — Keyout' };

/**
 * One job, whatever its state: start it (uploaded), watch it (processing), try it again
 * (failed), or look at and download its result (completed). Each part is a panel of its own,
 * so more panels (exports, mask versions) slot in without touching the others.
 */
export default async function JobPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ from?: string }>;
}) {
  const { id } = await params;
  const { from } = await searchParams;
  const user = await requireUser(`/jobs/${id}`);
  let detail;
  try {
    detail = await getJobDetail(defaultPorts, user.id, id);
  } catch (err) {
    if (err instanceof ServiceError && err.kind === 'not_found') notFound();
    throw err;
  }
  const { status: s } = detail;
  const started = s.status !== 'created' && s.status !== 'uploaded';
  const completed = s.status === 'completed';
  const [history, live, previous, exports, versions, refinements] = await Promise.all([
    started ? listWebhookDeliveries(defaultPorts, user.id, id) : null,
    s.status === 'processing' ? getJobProgress(defaultPorts, user.id, id) : null,
    s.status === 'uploaded' && from ? startOptionsOf(defaultPorts, user.id, from) : null,
    completed ? listJobExports(defaultPorts, user.id, id) : null,
    completed ? listMaskVersions(defaultPorts, user.id, id) : null,
    completed ? listRefinements(defaultPorts, user.id, id) : null,
  ]);
  // Mask refinement (issue 26): the models that refine masks (text or clicks), cheapest first, with
  // the price for this video.
  const textModels = API_MODEL_ROWS.filter((m) => m.textPrompts).sort(
    (a, b) => a.creditsPerSecond - b.creditsPerSecond,
  );

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-3 text-sm">
        <Link href="/jobs" className="rounded text-slate-700 hover:text-slate-900">
          ← All jobs
        </Link>
      </nav>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight break-words text-slate-900">
            {s.filename}
          </h1>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <JobStatusBadge status={s.status} />
            <span>Created {formatDate(s.created_at)}</span>
          </div>
        </div>
        <div className="flex shrink-0 gap-2">
          <DeleteJob jobId={s.id} filename={s.filename} />
        </div>
      </div>

      {s.status === 'uploaded' ? (
        <div className="space-y-6" data-testid="job-start">
          <Alert tone="info">
            {previous
              ? 'A new job from the same video, with the options of the failed ' +
                'one. Change what you like, then start it.'
              : 'This video is uploaded and ready. Choose a model and an output, then start it.'}
          </Alert>
          <StartForm
            targets={[{ jobId: s.id, name: s.filename }]}
            step={1}
            initialModel={previous?.model ?? undefined}
            initialChoice={previous ? choiceOf(previous.background) : undefined}
            initialWebhook={previous?.webhookUrl ?? undefined}
          />
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_300px]">
          <div className="min-w-0 space-y-6">
            {s.status === 'created' ? (
              <EmptyState
                title="Waiting for the video"
                action={<LinkButton href="/jobs/new">Upload a video</LinkButton>}
              >
                This job was created but its video never arrived. Upload it with the API, or start a
                new job here. Jobs whose video never arrives are deleted after a day.
              </EmptyState>
            ) : null}
            {s.status === 'processing' ? (
              <Card>
                <CardTitle>Processing</CardTitle>
                <JobLive
                  jobId={s.id}
                  initial={live?.progress ?? null}
                  width={detail.width}
                  height={detail.height}
                />
              </Card>
            ) : null}
            {s.status === 'failed' ? (
              <JobFailed jobId={s.id} message={s.message} refunded={detail.creditsUsed} />
            ) : null}
            {s.status === 'completed' ? <JobResultPreview detail={detail} /> : null}
            {s.status === 'completed' ? <JobDownloads downloads={detail.downloads} /> : null}
            {versions && refinements ? (
              <MaskVersionsPanel
                jobId={s.id}
                versions={versions}
                refinements={refinements}
                models={textModels.map(({ id: model, label }) => ({
                  id: model,
                  label,
                  credits: priceJob({
                    model,
                    durationSeconds: s.length_seconds ?? 0,
                    fps: detail.fps ?? 30,
                  }),
                }))}
                source={
                  detail.sourceUrl &&
                  detail.width &&
                  detail.height &&
                  detail.fps &&
                  detail.frameCount
                    ? {
                        url: detail.sourceUrl,
                        width: detail.width,
                        height: detail.height,
                        fps: detail.fps,
                        frameCount: detail.frameCount,
                      }
                    : null
                }
              />
            ) : null}
            {exports ? (
              <ExportsPanel
                jobId={s.id}
                exports={exports.exports.filter((e) => !isStickerFormat(e.format))}
                maskVersions={exports.maskVersions}
              />
            ) : null}
            {exports ? (
              <StickersPanel
                jobId={s.id}
                stickers={exports.exports.filter((e) => isStickerFormat(e.format))}
              />
            ) : null}
            {history ? <JobWebhooks history={history} /> : null}
          </div>
          <aside>
            <JobDetails detail={detail} />
          </aside>
        </div>
      )}
    </>
  );
}
