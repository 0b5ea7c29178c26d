import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuthForm } from '@/components/auth/auth-form';
import { Card } from '@/components/ui/card';
import { currentUser } from '@/lib/auth/current-user';
import { signInAction } from '../actions';

export const metadata: Metadata = { title: 'Sign in — Keyout' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string }>;
}) {
  if (await currentUser()) redirect('/jobs');
  const { next } = await searchParams;
  return (
    <Card>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">Sign in</h1>
      <p className="mb-6 text-sm text-slate-600">
        Welcome back. Your jobs, keys and credits are waiting.
      </p>
      <AuthForm mode="signin" action={signInAction} next={next} />
    </Card>
  );
}
