import type { Ports } from '../ports';

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  isAdmin: boolean;
  createdAt: Date;
  balance: number;
  jobs: number;
}

/** Every account with its balance and job count, for the admin page. */
export async function listUsers(ports: Ports): Promise<UserRow[]> {
  const [users, sums] = await Promise.all([
    ports.db.user.findMany({
      orderBy: { createdAt: 'asc' },
      select: {
        id: true,
        email: true,
        name: true,
        isAdmin: true,
        createdAt: true,
        _count: { select: { jobs: true } },
      },
    }),
    ports.db.creditEntry.groupBy({ by: ['userId'], _sum: { amount: true } }),
  ]);
  const balances = new Map(sums.map((s) => [s.userId, s._sum.amount ?? 0]));
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    isAdmin: u.isAdmin,
    createdAt: u.createdAt,
    balance: balances.get(u.id) ?? 0,
    jobs: u._count.jobs,
  }));
}
