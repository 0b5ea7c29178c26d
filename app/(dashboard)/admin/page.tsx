import type { Metadata } from 'next';
import { GrantForm } from '@/components/admin/grant-form';
import { ResetLink } from '@/components/admin/reset-link';
import { Cell, ReflowTable } from '@/components/ui/reflow-table';
import { reflowTable } from '@/components/ui/table';
import { Badge } from '@/components/ui/badge';
import { Card, CardTitle, PageHeader } from '@/components/ui/card';
import { formatDate } from '@/components/format';
import { requireAdmin } from '@/lib/auth/current-user';
import { listUsers } from '@/lib/services/accounts/list-users';
import { defaultPorts } from '@/lib/services/ports';
import { grantCreditsAction, resetLinkAction } from './actions';

export const metadata: Metadata = { title: 'Admin — Keyout' };

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
          <ReflowTable
            caption="Users"
            columns={[
              { label: 'Account' },
              { label: 'Joined' },
              { label: 'Jobs', numeric: true },
              { label: 'Balance', numeric: true },
              { label: 'Grant credits' },
              { label: 'Password' },
            ]}
          >
            {users.map((u) => (
              <tr key={u.id} className={reflowTable.tr}>
                <Cell label="Account" className="py-2.5 pr-4">
                  <span className="min-w-0">
                    <span className="font-medium break-all text-slate-900">{u.email}</span>{' '}
                    {u.isAdmin ? <Badge tone="violet">Admin</Badge> : null}
                    {u.name ? <span className="block text-xs text-slate-600">{u.name}</span> : null}
                  </span>
                </Cell>
                <Cell label="Joined" className="py-2.5 pr-4 whitespace-nowrap text-slate-600">
                  {formatDate(u.createdAt)}
                </Cell>
                <Cell label="Jobs" className="py-2.5 pr-4 text-right tabular-nums">
                  {u.jobs}
                </Cell>
                <Cell label="Balance" className="py-2.5 pr-4 text-right tabular-nums">
                  {u.balance}
                </Cell>
                <Cell label="Grant" className="py-2.5 pr-4">
                  <GrantForm userId={u.id} email={u.email} action={grantCreditsAction} />
                </Cell>
                <Cell label="Password" className="py-2.5">
                  <ResetLink email={u.email} action={resetLinkAction} />
                </Cell>
              </tr>
            ))}
          </ReflowTable>
        </div>
      </Card>
    </>
  );
}
