import type { Metadata } from 'next';
import Link from 'next/link';
import { CreateKey } from '@/components/keys/create-key';
import { RevokeKey } from '@/components/keys/revoke-key';
import { Badge } from '@/components/ui/badge';
import { LinkButton } from '@/components/ui/button';
import { Alert, Card, CardTitle, EmptyState, PageHeader } from '@/components/ui/card';
import { formatDate } from '@/components/format';
import { type Column, ReflowTable } from '@/components/ui/reflow-table';
import { requireUser } from '@/lib/auth/current-user';
import { hasPurchasedCredits } from '@/lib/billing/ledger';
import { type ApiKeySummary, listApiKeys } from '@/lib/services/keys/list-api-keys';
import { defaultPorts } from '@/lib/services/ports';
import { createKeyAction, revokeKeyAction } from './actions';

export const metadata: Metadata = { title: 'API keys — Keyout' };

const KEY_COLUMNS: Column<ApiKeySummary>[] = [
  {
    label: 'Name',
    className: 'font-medium text-slate-900',
    cell: (k) => k.name || <span className="text-slate-600">Unnamed</span>,
  },
  {
    label: 'Key',
    cell: (k) => <code className="font-mono text-xs text-slate-700">{k.prefix}…</code>,
  },
  {
    label: 'Created',
    className: 'whitespace-nowrap text-slate-600',
    cell: (k) => formatDate(k.createdAt),
  },
  {
    label: 'Last used',
    className: 'whitespace-nowrap text-slate-600',
    cell: (k) => (k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never'),
  },
  {
    label: 'Actions',
    hidden: true,
    cellLabel: '',
    className: 'text-right max-sm:justify-end',
    cell: (k) =>
      k.revokedAt ? (
        <Badge tone="red">Revoked {formatDate(k.revokedAt)}</Badge>
      ) : (
        <RevokeKey
          id={k.id}
          label={k.name ? `“${k.name}”` : `${k.prefix}…`}
          action={revokeKeyAction}
        />
      ),
  },
];

export default async function KeysPage() {
  const user = await requireUser('/keys');
  const [keys, purchased] = await Promise.all([
    listApiKeys(defaultPorts, user.id),
    hasPurchasedCredits(user.id),
  ]);
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Send a key in the <code className="text-xs">X-Api-Key</code> header from your server.
            Keep keys secret: never put them in a web page or app.{' '}
            <Link href="/docs" className="text-indigo-700 underline hover:text-indigo-500">
              Read the API docs
            </Link>
            .
          </>
        }
      />
      <div className="space-y-6">
        <Card>
          <CardTitle>Create a key</CardTitle>
          {!purchased ? (
            <div className="mb-4">
              <Alert tone="warning">
                <p>
                  API keys are available once your account has <strong>purchased</strong> credits.
                  This protects the service from abuse; credits granted by an administrator do not
                  count.
                </p>
                <div className="mt-3">
                  <LinkButton href="/credits" size="sm">
                    Buy credits
                  </LinkButton>
                </div>
              </Alert>
            </div>
          ) : null}
          <CreateKey action={createKeyAction} disabled={!purchased} />
        </Card>

        <Card>
          <CardTitle>Your keys</CardTitle>
          {keys.length === 0 ? (
            <EmptyState title="No API keys yet">Create one above to call the API.</EmptyState>
          ) : (
            <div>
              <ReflowTable
                caption="API keys"
                columns={KEY_COLUMNS}
                rows={keys}
                rowTestId="api-key-row"
              />
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
