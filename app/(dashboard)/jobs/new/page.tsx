import type { Metadata } from 'next';
import { NewJob } from '@/components/jobs/new-job';
import { LinkButton } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/current-user';
import { env } from '@/lib/env';
import { getUploadedJob } from '@/lib/services/jobs/get-uploaded-job';
import { defaultPorts } from '@/lib/services/ports';

export const metadata: Metadata = { title: 'New job — Keyout' };

export default async function NewJobPage({
  searchParams,
}: {
  searchParams: Promise<{ job?: string }>;
}) {
  const user = await requireUser('/jobs/new');
  const { job } = await searchParams;
  const uploaded = job ? await getUploadedJob(defaultPorts, user.id, job) : null;
  return (
    <>
      <PageHeader
        title="New job"
        description={
          'Upload one or more videos, pick a model and an output, and see ' +
          'the exact cost before you start.'
        }
        actions={
          <LinkButton href="/jobs/new/image" variant="secondary">
            From an image
          </LinkButton>
        }
      />
      <NewJob maxUploadBytes={env().MAX_UPLOAD_BYTES} uploaded={uploaded ?? undefined} />
    </>
  );
}
