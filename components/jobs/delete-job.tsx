'use client';

import { deleteJobAction } from '@/app/(dashboard)/jobs/actions';
import { ConfirmButton } from '@/components/ui/confirm-dialog';

export function DeleteJob({ jobId, filename }: { jobId: string; filename: string }) {
  return (
    <ConfirmButton
      size="md"
      trigger="Delete job"
      title={`Delete “${filename}”?`}
      body={
        'The original, the mask and every output are deleted for good. ' +
        'Credits spent on this job are not refunded.'
      }
      confirmLabel="Delete for good"
      onConfirm={async () => (await deleteJobAction(jobId)).error}
    />
  );
}
