import type { Metadata } from 'next';
import { GrantForm } from '@/components/admin/grant-form';
import { ResetLink } from '@/components/admin/reset-link';
import { reflowTable } from '@/components/ui/table';
import { Badge } from '@/components/ui/badge';
import { Card, CardTitle, PageHeader } from '@/components/ui/card';
import { formatDate } from '@/components/format';
import { requireAdmin } from '@/lib/auth/current-user';
import { listUsers } from '@/lib/services/accounts/list-users';
import { grantCreditsAction, resetLinkAction } from './actions';

export const metadata: Metadata = { title: 'Admin — Keyout' };

export default async function AdminPage() {
  await requireAdmin();
  const users = await listUsers();
  return (
    <>
      <PageHeader
        title="Admin"
        description="Accounts on this server. Granted credits can be spent on jobs; API keys still need a purchase. A password-reset link works once, for an hour: pass it on to its owner."
      />
      <Card>
        <CardTitle description={`${users.length} account${users.length === 1 ? '' : 's'}`}>
          Users
        </CardTitle>
        <div>
          <table className={reflowTable.table}>
            <caption className="sr-only">Users</caption>
            <thead className={reflowTable.thead}>
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Account
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Joined
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Jobs
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  Balance
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Grant credits
                </th>
                <th scope="col" className="py-2 font-medium">
                  Password
                </th>
              </tr>
            </thead>
            <tbody className={reflowTable.tbody}>
              {users.map((u) => (
                <tr key={u.id} className={reflowTable.tr}>
                  <td data-label="Account" className={`py-2.5 pr-4 ${reflowTable.td}`}>
                    <span className="min-w-0">
                      <span className="font-medium break-all text-slate-900">{u.email}</span>{' '}
                      {u.isAdmin ? <Badge tone="violet">Admin</Badge> : null}
                      {u.name ? (
                        <span className="block text-xs text-slate-600">{u.name}</span>
                      ) : null}
                    </span>
                  </td>
                  <td
                    data-label="Joined"
                    className={`py-2.5 pr-4 whitespace-nowrap text-slate-600 ${reflowTable.td}`}
                  >
                    {formatDate(u.createdAt)}
                  </td>
                  <td
                    data-label="Jobs"
                    className={`py-2.5 pr-4 text-right tabular-nums ${reflowTable.td}`}
                  >
                    {u.jobs}
                  </td>
                  <td
                    data-label="Balance"
                    className={`py-2.5 pr-4 text-right tabular-nums ${reflowTable.td}`}
                  >
                    {u.balance}
                  </td>
                  <td data-label="Grant" className={`py-2.5 pr-4 ${reflowTable.td}`}>
                    <GrantForm userId={u.id} email={u.email} action={grantCreditsAction} />
                  </td>
                  <td data-label="Password" className={`py-2.5 ${reflowTable.td}`}>
                    <ResetLink email={u.email} action={resetLinkAction} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </>
  );
}
