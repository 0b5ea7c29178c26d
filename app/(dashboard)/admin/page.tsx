import type { Metadata } from 'next';
import { GrantForm } from '@/components/admin/grant-form';
import { ResetLink } from '@/components/admin/reset-link';
import { type Column, ReflowTable } from '@/components/ui/reflow-table';
import { Badge } from '@/components/ui/badge';
import { Card, CardTitle, PageHeader } from '@/components/ui/card';
import { formatDate } from '@/components/format';
import { requireAdmin } from '@/lib/auth/current-user';
import { listUsers, type UserRow } from '@/lib/services/accounts/list-users';
import { defaultPorts } from '@/lib/services/ports';
import { grantCreditsAction, resetLinkAction } from './actions';

export const metadata: Metadata = { title: 'Admin — Keyout' };

const USER_COLUMNS: Column<UserRow>[] = [
  {
    label: 'Account',
    cell: (u) => (
      <span className="min-w-0">
        <span className="font-medium break-all text-slate-900">{u.email}</span>{' '}
        {u.isAdmin ? <Badge tone="violet">Admin</Badge> : null}
        {u.name ? <span className="block text-xs text-slate-600">{u.name}</span> : null}
      </span>
    ),
  },
  {
    label: 'Joined',
    className: 'whitespace-nowrap text-slate-600',
    cell: (u) => formatDate(u.createdAt),
  },
  { label: 'Jobs', numeric: true, cell: (u) => u.jobs },
  { label: 'Balance', numeric: true, cell: (u) => u.balance },
  {
    label: 'Grant credits',
    cellLabel: 'Grant',
    cell: (u) => <GrantForm userId={u.id} email={u.email} action={grantCreditsAction} />,
  },
  { label: 'Password', cell: (u) => <ResetLink email={u.email} action={resetLinkAction} /> },
];

export default async function AdminPage() {
  await requireAdmin();
  const users = await listUsers(defaultPorts);
  return (
    <>
      <PageHeader
        title="Admin"
        description={
          'Accounts on this server. Granted credits can be spent on jobs; ' +
          'API keys still need a purchase. A password-reset link works ' +
          'once, for an hour: pass it on to its owner.'
        }
      />
      <Card>
        <CardTitle description={`${users.length} account${users.length === 1 ? '' : 's'}`}>
          Users
        </CardTitle>
        <div>
          <ReflowTable caption="Users" columns={USER_COLUMNS} rows={users} />
        </div>
      </Card>
    </>
  );
}
