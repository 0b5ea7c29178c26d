import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { LazyApiReference } from '@/components/docs/lazy-api-reference';
import { Card, CardTitle, PageHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { requireUser } from '@/lib/auth/current-user';
import { env } from '@/lib/env';
import { openApiYaml } from '@/lib/schemas/openapi';
import { quickstartScript, quickstartSteps } from '@/lib/services/keys/quickstart-script';
import { listApiKeys } from '@/lib/services/keys/list-api-keys';
import { defaultPorts } from '@/lib/services/ports';

export const metadata: Metadata = { title: 'API docs — Keyout' };

const API_KEY_HEADER = <code className="text-xs">X-Api-Key</code>;

export default async function DocsPage() {
  const user = await requireUser('/docs');
  const keys = (await listApiKeys(defaultPorts, user.id)).filter((k) => !k.revokedAt);
  const h = await headers();
  const base = h.get('host')
    ? `${h.get('x-forwarded-proto') ?? 'http'}://${h.get('host')}`
    : env().PUBLIC_URL;
  // Only the display prefix is stored; the full key was shown once, so the script asks for it once.
  const prefix = keys[0]?.prefix ?? null;
  const steps = quickstartSteps(base, prefix);
  return (
    <>
      <PageHeader
        title="API docs"
        description={
          <>
            Every request carries your key in the {API_KEY_HEADER} header.{' '}
            {prefix ? (
              <>
                Paste your full key (it starts with <code className="text-xs">{prefix}</code>) where
                the first step says, or set <code className="text-xs">KEYOUT_API_KEY</code>.
              </>
            ) : (
              <>
                <Link href="/keys" className="text-indigo-700 underline hover:text-indigo-500">
                  Create a key
                </Link>{' '}
                to call the API.
              </>
            )}{' '}
            The OpenAPI document is public at <code className="text-xs">GET /v1/openapi</code>.
          </>
        }
      />
      <div className="space-y-6">
        <Card>
          <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
            <CardTitle
              description={
                'Create, upload, start, wait, download: paste the steps one ' +
                'after the other into a terminal (bash or zsh, with curl and ' +
                'jq), or copy them as one script.'
              }
            >
              Quick start
            </CardTitle>
            <CopyButton
              text={quickstartScript(base, prefix)}
              label="Copy as one script"
              testId="copy-script"
            />
          </div>
          <ol className="space-y-4">
            {steps.map((e, i) => (
              <li key={e.title}>
                <div className="mb-1.5 flex items-center justify-between gap-3">
                  <p className="text-sm font-medium text-slate-800">
                    {i + 1}. {e.title}
                  </p>
                  <CopyButton text={e.code} label="Copy" srLabel={`step ${i + 1}`} />
                </div>
                <pre
                  className={
                    'overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs leading-5 ' +
                    'text-slate-100'
                  }
                  tabIndex={0}
                  aria-label={`Step ${i + 1}`}
                >
                  <code>{e.code}</code>
                </pre>
              </li>
            ))}
          </ol>
        </Card>
        <section aria-label="API reference">
          <LazyApiReference document={openApiYaml()} />
        </section>
      </div>
    </>
  );
}
