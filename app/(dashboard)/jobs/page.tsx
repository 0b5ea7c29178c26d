import type { Metadata } from 'next';
import Link from 'next/link';
import { AutoRefresh } from '@/components/jobs/auto-refresh';
import { JobStatusBadge } from '@/components/jobs/status-badge';
import { buttonClass, LinkButton } from '@/components/ui/button';
import { Alert, EmptyState, PageHeader } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';
import { ProgressBar } from '@/components/ui/progress';
import { formatDate, formatSeconds } from '@/components/format';
import { requireUser } from '@/lib/auth/current-user';
import { describeOutput, modelName } from '@/components/jobs/describe-output';
import { JobThumbnail } from '@/components/jobs/job-thumbnail';
import { listJobs, NOT_STARTED, type JobListItem } from '@/lib/services/jobs/list-jobs';
import { defaultPorts } from '@/lib/services/ports';

export const metadata: Metadata = { title: 'Jobs — Keyout' };

const FILTERS = [
  ['', 'All'],
  ['processing', 'Processing'],
  ['completed', 'Completed'],
  ['failed', 'Failed'],
  [NOT_STARTED, 'Not started'],
] as const;

type Search = { status?: string; q?: string; page?: string; deleted?: string; password?: string };

export default async function JobsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser('/jobs');
  const sp = await searchParams;
  const page = Math.max(0, Number(sp.page ?? 0) || 0);
  const { jobs, hasMore } = await listJobs(defaultPorts, user.id, {
    status: sp.status,
    query: sp.q,
    page,
  });
  const filtered = Boolean(sp.status || sp.q);
  const qs = (over: Partial<Search>) => {
    const p = new URLSearchParams();
    const merged = { status: sp.status, q: sp.q, ...over };
    for (const [k, v] of Object.entries(merged)) if (v) p.set(k, String(v));
    const s = p.toString();
    return s ? `/jobs?${s}` : '/jobs';
  };

  return (
    <>
      <AutoRefresh active={jobs.some((j) => j.status === 'processing')} />
      <PageHeader
        title="Jobs"
        description={
          sp.status === NOT_STARTED
            ? 'Videos that were uploaded (or announced) but never started. ' +
              'Start one from its page; they are deleted 7 days after upload, ' +
              'or a day after creation if the video never arrived.'
            : 'Videos processed on the server. Results stay available until you delete them.'
        }
        actions={<LinkButton href="/jobs/new">New job</LinkButton>}
      />
      {sp.password === 'reset' ? (
        <div className="mb-4">
          <Alert tone="success">
            Your new password is set, and you are signed in. Other sessions of your account were
            signed out.
          </Alert>
        </div>
      ) : null}
      {sp.deleted ? (
        <div className="mb-4">
          <Alert tone="success">The job and its files were deleted.</Alert>
        </div>
      ) : null}

      <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <nav aria-label="Filter by status" className="flex flex-wrap gap-1">
          {FILTERS.map(([value, label]) => {
            const active = (sp.status ?? '') === value;
            return (
              <Link
                key={value || 'all'}
                href={qs({ status: value || undefined, page: undefined })}
                aria-current={active ? 'page' : undefined}
                className={
                  'rounded-full px-3 py-1 text-sm font-medium whitespace-nowrap ' +
                  `${active ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-200'}`
                }
              >
                {label}
              </Link>
            );
          })}
        </nav>
        <form role="search" action="/jobs" className="flex gap-2">
          {sp.status ? <input type="hidden" name="status" value={sp.status} /> : null}
          <label htmlFor="job-search" className="sr-only">
            Search by file name
          </label>
          <input
            id="job-search"
            name="q"
            defaultValue={sp.q}
            placeholder="Search file names"
            className={`${inputClass} sm:w-56`}
          />
          <button type="submit" className={buttonClass('secondary')}>
            Search
          </button>
        </form>
      </div>

      {jobs.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No jobs match"
            action={
              <LinkButton variant="secondary" href="/jobs">
                Clear filters
              </LinkButton>
            }
          >
            Try another status or search term.
          </EmptyState>
        ) : (
          <EmptyState
            title="No jobs yet"
            action={<LinkButton href="/jobs/new">Upload your first video</LinkButton>}
          >
            Upload a video to remove its background on the server, or try the free in-browser{' '}
            <Link href="/studio" className="text-indigo-700 underline hover:text-indigo-500">
              Studio
            </Link>
            .
          </EmptyState>
        )
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {jobs.map((j) => (
            <JobCard key={j.id} job={j} />
          ))}
        </ul>
      )}
      {page > 0 || hasMore ? (
        <nav aria-label="Pages" className="mt-6 flex justify-between">
          {page > 0 ? (
            <LinkButton variant="secondary" href={qs({ page: String(page - 1) })}>
              Newer
            </LinkButton>
          ) : (
            <span />
          )}
          {hasMore ? (
            <LinkButton variant="secondary" href={qs({ page: String(page + 1) })}>
              Older
            </LinkButton>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

/** One job of the list: its thumbnail and status, what it makes, and its progress or error. */
function JobCard({ job: j }: { job: JobListItem }) {
  return (
    <li data-testid="job-card">
      <Link
        href={`/jobs/${j.id}`}
        className={
          'group block overflow-hidden rounded-xl border border-slate-200 ' +
          'bg-white shadow-sm transition hover:border-slate-300 ' +
          'hover:shadow'
        }
      >
        <div className="relative aspect-video">
          <JobThumbnail job={j} />
          <div className="absolute top-2 left-2">
            <JobStatusBadge status={j.status} />
          </div>
        </div>
        <div className="p-4">
          <p
            className={
              'line-clamp-2 font-medium break-words text-slate-900 group-hover:text-indigo-700'
            }
            title={j.filename}
          >
            {j.filename}
          </p>
          {j.model ? (
            <p className="mt-0.5 text-xs text-slate-700">
              {modelName(j.model)} · {describeOutput(j)}
            </p>
          ) : null}
          <p className="mt-0.5 text-xs text-slate-600">
            {formatDate(j.createdAt)}
            {j.lengthSeconds ? ` · ${formatSeconds(j.lengthSeconds)}` : ''}
            {j.creditsUsed
              ? ` · ${j.creditsUsed} credits${j.status === 'failed' ? ' refunded' : ''}`
              : ''}
          </p>
          {j.status === 'processing' ? (
            <div className="mt-3">
              <ProgressBar value={j.progress} label={`Progress of ${j.filename}`} />
            </div>
          ) : null}
          {j.status === 'failed' && j.message ? (
            <p className="mt-2 line-clamp-2 text-xs text-rose-700">{j.message}</p>
          ) : null}
        </div>
      </Link>
    </li>
  );
}
