import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { ApiReference } from '@/components/docs/api-reference';
import { Card, CardTitle, PageHeader } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { requireUser } from '@/lib/auth/current-user';
import { env } from '@/lib/env';
import { openApiYaml } from '@/lib/schemas/openapi';
import { listApiKeys } from '@/lib/services/list-api-keys';

export const metadata: Metadata = { title: 'API docs — Keyout' };

function examples(base: string, key: string) {
  return [
    {
      title: '1. Create a job',
      code: `curl -s -X POST ${base}/v1/jobs \\
  -H "X-Api-Key: ${key}" -H "Content-Type: application/json" \\
  -d '{"filename":"talk.mp4","content_type":"video/mp4"}'`,
    },
    {
      title: '2. Upload the video to the upload_url from step 1',
      code: `curl -s -X PUT "$UPLOAD_URL" -H "Content-Type: video/mp4" --data-binary @talk.mp4`,
    },
    {
      title: '3. Start it (the answer says exactly how many credits it used)',
      code: `curl -s -X POST ${base}/v1/jobs/$JOB_ID/start \\
  -H "X-Api-Key: ${key}" -H "Content-Type: application/json" \\
  -d '{"model":"service-original","background":{"type":"transparent","transparent_format":"webm_vp9"}}'`,
    },
    {
      title: '4. Poll until completed, then download processed_video_url',
      code: `curl -s ${base}/v1/jobs/$JOB_ID/status -H "X-Api-Key: ${key}"`,
    },
    { title: 'Your balance', code: `curl -s ${base}/v1/credits -H "X-Api-Key: ${key}"` },
  ];
}

export default async function DocsPage() {
  const user = await requireUser('/docs');
  const keys = (await listApiKeys(user.id)).filter((k) => !k.revokedAt);
  const h = await headers();
  const base = h.get('host') ? `${h.get('x-forwarded-proto') ?? 'http'}://${h.get('host')}` : env().PUBLIC_URL;
  // Only the display prefix is stored; the rest of the key was shown once at creation.
  const key = keys[0] ? `${keys[0].prefix}…` : 'YOUR_API_KEY';
  return (
    <>
      <PageHeader
        title="API docs"
        description={
          <>
            Every request carries your key in the <code className="text-xs">X-Api-Key</code> header.{' '}
            {keys[0] ? (
              <>The examples use your key <code className="text-xs">{keys[0].prefix}…</code>; paste the full key you copied when you created it.</>
            ) : (
              <>
                <Link href="/keys" className="text-indigo-600 hover:text-indigo-500">Create a key</Link> to call the API.
              </>
            )}
          </>
        }
      />
      <div className="space-y-6">
        <Card>
          <CardTitle description="Create, upload, start, poll: the whole flow with curl.">Quick start</CardTitle>
          <ol className="space-y-4">
            {examples(base, key).map((e) => (
              <li key={e.title}>
                <div className="mb-1.5 flex items-center justify-between gap-3">
                  <p className="text-sm font-medium text-slate-800">{e.title}</p>
                  <CopyButton text={e.code} label="Copy" />
                </div>
                <pre className="overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs leading-5 text-slate-100">
                  <code>{e.code}</code>
                </pre>
              </li>
            ))}
          </ol>
        </Card>
        <section aria-label="API reference">
          <ApiReference document={openApiYaml()} />
        </section>
      </div>
    </>
  );
}
