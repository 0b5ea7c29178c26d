import type { Metadata } from 'next';
import { GrantForm } from '@/components/admin/grant-form';
import { Badge } from '@/components/ui/badge';
import { Card, CardTitle, PageHeader } from '@/components/ui/card';
import { formatDate } from '@/components/format';
import { requireAdmin } from '@/lib/auth/current-user';
import { listUsers } from '@/lib/services/dashboard/list-users';
import { grantCreditsAction } from './actions';

export const metadata: Metadata = { title: 'Admin — Keyout' };

export default async function AdminPage() {
  await requireAdmin();
  const users = await listUsers();
  return (
    <>
      <PageHeader title="Admin" description="Accounts on this server. Granted credits can be spent on jobs; API keys still need a purchase." />
      <Card>
        <CardTitle description={`${users.length} account${users.length === 1 ? '' : 's'}`}>Users</CardTitle>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[760px] text-left text-sm">
            <caption className="sr-only">Users</caption>
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">Account</th>
                <th scope="col" className="py-2 pr-4 font-medium">Joined</th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">Jobs</th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">Balance</th>
                <th scope="col" className="py-2 font-medium">Grant credits</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {users.map((u) => (
                <tr key={u.id}>
                  <td className="py-2.5 pr-4">
                    <span className="font-medium text-slate-900">{u.email}</span> {u.isAdmin ? <Badge tone="violet">Admin</Badge> : null}
                    {u.name ? <span className="block text-xs text-slate-500">{u.name}</span> : null}
                  </td>
                  <td className="py-2.5 pr-4 whitespace-nowrap text-slate-600">{formatDate(u.createdAt)}</td>
                  <td className="py-2.5 pr-4 text-right tabular-nums">{u.jobs}</td>
                  <td className="py-2.5 pr-4 text-right tabular-nums">{u.balance}</td>
                  <td className="py-2.5">
                    <GrantForm userId={u.id} email={u.email} action={grantCreditsAction} />
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
