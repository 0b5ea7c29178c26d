'use client';

import { ConfirmButton } from '@/components/ui/confirm-dialog';

export function RevokeKey({
  id,
  label,
  action,
}: {
  id: string;
  label: string;
  action: (id: string) => Promise<{ error?: string }>;
}) {
  return (
    <ConfirmButton
      trigger="Revoke"
      title={`Revoke ${label}?`}
      body={
        'Requests with this key will be refused with 401 Invalid API ' +
        'key straight away. This cannot be undone.'
      }
      confirmLabel="Revoke key"
      onConfirm={async () => (await action(id)).error}
    />
  );
}
