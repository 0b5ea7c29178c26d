import type { Metadata } from 'next';
import { NewJob } from '@/components/jobs/new-job';
import { PageHeader } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/current-user';
import { env } from '@/lib/env';

export const metadata: Metadata = { title: 'New job — Keyout' };

export default async function NewJobPage() {
  await requireUser('/jobs/new');
  return (
    <>
      <PageHeader title="New job" description="Upload a video, pick a model and an output, and see the exact cost before you start." />
      <NewJob maxUploadBytes={env().MAX_UPLOAD_BYTES} />
    </>
  );
}
