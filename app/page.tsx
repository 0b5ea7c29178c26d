import Link from 'next/link';
import { Logo } from '@/components/brand/logo';
import { LinkButton } from '@/components/ui/button';
import { formatPrice } from '@/components/format';
import { MODELS } from '@/components/jobs/job-options';
import { BeforeAfter } from '@/components/media/before-after';
import { type Column, ReflowTable } from '@/components/ui/reflow-table';
import { CREDIT_PACKS } from '@/lib/services/credits/checkout';
import { currentUser } from '@/lib/auth/current-user';
import { SAMPLE_CLIP } from '@/engine/media/sample-clip';
import { sampleUrls } from '@/lib/media/sample-files';

export const dynamic = 'force-dynamic';

const features = [
  {
    title: 'Private, in your browser',
    body:
      'The Studio runs the segmentation model on your GPU with WebGPU ' +
      '(or on the CPU with WebAssembly). Your video never leaves your ' +
      'computer.',
  },
  {
    title: 'Or on our servers',
    body:
      'Upload long or high-resolution clips and get transparent WebM, ' +
      'ProRes 4444, masks, colour or image backgrounds and blur — ' +
      'with webhooks when they are done.',
  },
  {
    title: 'An API for your product',
    body:
      'Create a job, upload to a signed URL, start it and poll or ' +
      'receive a webhook. You see the exact credit cost before you ' +
      'start.',
  },
  {
    title: 'Self-hostable',
    body:
      'One command starts the web app and a worker on SQLite and ' +
      'local disk. Scale out to PostgreSQL, S3 and GPU workers when ' +
      'you need to.',
  },
];

/**
 * A minute of video at `rate` credits a second, in dollars at the dearest and cheapest pack prices.
 */
function perMinute(rate: number): string {
  const cents = CREDIT_PACKS.map((p) => (p.priceCents / p.credits) * rate * 60);
  const [low, high] = [Math.min(...cents), Math.max(...cents)].map((c) =>
    formatPrice(Math.round(c)),
  );
  return `${low}–${high}`;
}

export default async function Home() {
  const user = await currentUser();
  const sample = sampleUrls();
  return (
    <div className="min-h-screen bg-white">
      <header
        className={'mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-5 sm:px-6'}
      >
        <Logo />
        <nav aria-label="Site" className="flex items-center gap-1 sm:gap-2">
          <Link
            href="/studio"
            className={
              'hidden rounded-lg px-3 py-2 text-sm font-medium ' +
              'whitespace-nowrap text-slate-700 hover:bg-slate-100 sm:block'
            }
          >
            Studio
          </Link>
          {user ? (
            <LinkButton href="/jobs" size="sm">
              Dashboard
            </LinkButton>
          ) : (
            <>
              <Link
                href="/signin"
                className={
                  'rounded-lg px-2 py-2 text-sm font-medium whitespace-nowrap ' +
                  'text-slate-700 hover:bg-slate-100 sm:px-3'
                }
              >
                Sign in
              </Link>
              <LinkButton href="/signup" size="sm" className="whitespace-nowrap">
                Create account
              </LinkButton>
            </>
          )}
        </nav>
      </header>

      <main>
        <section
          className={
            'mx-auto grid max-w-6xl items-center gap-12 px-4 pt-10 pb-20 ' +
            'sm:px-6 lg:grid-cols-2 lg:pt-20'
          }
        >
          <div>
            <p
              className={
                'mb-4 inline-flex rounded-full bg-indigo-50 px-3 py-1 text-xs ' +
                'font-semibold text-indigo-700 ring-1 ring-indigo-200 ' +
                'ring-inset'
              }
            >
              Video background removal
            </p>
            <h1 className="text-4xl font-semibold tracking-tight text-slate-900 sm:text-5xl">
              Cut people and objects out of any video.
            </h1>
            <p className="mt-5 max-w-xl text-lg text-slate-600">
              Keyout removes the background from videos and gives you transparent WebM, masks or a
              new background — privately in your browser, or at scale on our servers and API.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <LinkButton href="/studio" size="lg">
                {sample ? 'Try it in the Studio — no account' : 'Try the Studio — no account'}
              </LinkButton>
              <LinkButton href={user ? '/jobs' : '/signup'} size="lg" variant="secondary">
                {user ? 'Go to your jobs' : 'Use the API'}
              </LinkButton>
            </div>
          </div>
          {sample ? (
            <div
              className={'min-w-0 rounded-2xl bg-white p-3 shadow-xl ring-1 ring-slate-200 sm:p-4'}
            >
              <p className="mb-2 text-sm font-medium text-slate-900">
                A sample clip, before and after — drag the split
              </p>
              <BeforeAfter
                before={sample.clip}
                after={sample.cutout}
                width={SAMPLE_CLIP.width}
                height={SAMPLE_CLIP.height}
              />
            </div>
          ) : (
            <div aria-hidden="true" className="relative">
              <div
                className={
                  'checkerboard aspect-video overflow-hidden rounded-2xl ' +
                  'shadow-xl ring-1 ring-slate-200'
                }
              >
                <div className="flex h-full items-end justify-center">
                  <svg viewBox="0 0 200 160" className="h-4/5 drop-shadow-xl">
                    <circle cx="100" cy="55" r="32" fill="#4f46e5" />
                    <path d="M30 160c0-42 31-70 70-70s70 28 70 70Z" fill="#6366f1" />
                  </svg>
                </div>
              </div>
            </div>
          )}
        </section>

        <section aria-labelledby="features" className="border-t border-slate-100 bg-slate-50 py-20">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <h2 id="features" className="text-2xl font-semibold tracking-tight text-slate-900">
              One engine, two places to run it
            </h2>
            <div className="mt-10 grid gap-6 sm:grid-cols-2">
              {features.map((f) => (
                <div
                  key={f.title}
                  className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
                >
                  <h3 className="font-semibold text-slate-900">{f.title}</h3>
                  <p className="mt-2 text-sm leading-6 text-slate-600">{f.body}</p>
                </div>
              ))}
            </div>
          </div>
        </section>

        <PricingSection />
      </main>

      <footer className="border-t border-slate-100 py-8 text-center text-sm text-slate-600">
        Keyout is open source (AGPL-3.0) and self-hostable.
      </footer>
    </div>
  );
}

const PRICE_COLUMNS: Column<(typeof MODELS)[number]>[] = [
  {
    label: 'Model',
    className: 'font-medium text-slate-900',
    cell: (m) => (
      <span>
        {m.name} <code className="ml-1 text-xs text-slate-600">{m.id}</code>
      </span>
    ),
  },
  { label: 'What it does', className: 'text-slate-700', cell: (m) => m.blurb },
  { label: 'Credits per second', className: 'tabular-nums text-slate-900', cell: (m) => m.rate },
  {
    label: 'A minute of video',
    className: 'tabular-nums text-slate-900',
    cell: (m) => perMinute(m.rate),
  },
];

/** The price of each model, per second and per minute of video, and the credit packs. */
function PricingSection() {
  return (
    <section aria-labelledby="pricing" className="py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="pricing" className="text-2xl font-semibold tracking-tight text-slate-900">
          Simple pricing in credits
        </h2>
        <p className="mt-2 max-w-2xl text-slate-600">
          You pay per second of video, rounded up, and see the exact charge before a job starts.
          Credits come in packs from{' '}
          {CREDIT_PACKS.map((p) => `${formatPrice(p.priceCents)} for ${p.credits}`).join(', ')}; a
          blurred background or subject adds 1 credit a second, and video above 30 fps costs fps/30
          times as much. The Studio is free.
        </p>
        <div className="mt-8 rounded-xl px-4 ring-1 ring-slate-200 sm:px-0">
          <ReflowTable
            caption="Price per model"
            columns={PRICE_COLUMNS}
            rows={MODELS}
            pad={{ head: 'px-4 py-3', cell: 'px-4 py-3' }}
            headClassName="bg-slate-50"
          />
        </div>
      </div>
    </section>
  );
}
