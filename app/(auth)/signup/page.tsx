import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuthForm } from '@/components/auth/auth-form';
import { Card } from '@/components/ui/card';
import { currentUser } from '@/lib/auth/current-user';
import { signUpAction } from '../actions';

export const metadata: Metadata = { title: 'Create an account — Keyout' };

export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string }>;
}) {
  if (await currentUser()) redirect('/jobs');
  const { next } = await searchParams;
  return (
    <Card>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">Create your account</h1>
      <p className="mb-6 text-sm text-slate-600">
        Process videos on our servers and manage API keys and credits.
      </p>
      <AuthForm mode="signup" action={signUpAction} next={next} />
    </Card>
  );
}
