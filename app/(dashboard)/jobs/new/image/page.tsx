import type { Metadata } from 'next';
import { NewStillJob } from '@/components/jobs/new-still-job';
import { PageHeader } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/current-user';

export const metadata: Metadata = { title: 'Image to video — Keyout' };

export default async function NewImageJobPage() {
  await requireUser('/jobs/new/image');
  return (
    <>
      <PageHeader
        title="Image to video"
        description={
          'Turn a photo into a short clip: the subject is cut out once ' +
          'and animated with a camera move, then you get the clip and ' +
          'stickers like any job.'
        }
      />
      <NewStillJob />
    </>
  );
}
