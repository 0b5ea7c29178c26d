import { DashboardShell } from '@/components/dashboard/shell';
import { requireUser } from '@/lib/auth/current-user';

// Every page here reads the session and the database per request.
export const dynamic = 'force-dynamic';

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return <DashboardShell user={user}>{children}</DashboardShell>;
}
