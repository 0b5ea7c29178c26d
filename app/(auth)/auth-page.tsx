import { redirect } from 'next/navigation';
import { signInAction, signUpAction } from './actions';
import { AuthForm } from '@/components/auth/auth-form';
import { Card } from '@/components/ui/card';
import { currentUser } from '@/lib/auth/current-user';

const PAGES = {
  signin: {
    title: 'Sign in',
    blurb: 'Welcome back. Your jobs, keys and credits are waiting.',
    action: signInAction,
  },
  signup: {
    title: 'Create your account',
    blurb: 'Process videos on our servers and manage API keys and credits.',
    action: signUpAction,
  },
};

/** The sign-in and sign-up pages: a signed-in visitor goes to the jobs, others get the form. */
export async function AuthPage({
  mode,
  searchParams,
}: {
  mode: keyof typeof PAGES;
  searchParams: Promise<{ next?: string }>;
}) {
  if (await currentUser()) redirect('/jobs');
  const { next } = await searchParams;
  const { title, blurb, action } = PAGES[mode];
  return (
    <Card>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">{title}</h1>
      <p className="mb-6 text-sm text-slate-600">{blurb}</p>
      <AuthForm mode={mode} action={action} next={next} />
    </Card>
  );
}
