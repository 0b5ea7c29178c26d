import type { Metadata } from 'next';
import { AuthPage } from '../auth-page';

export const metadata: Metadata = { title: 'Sign in — Keyout' };

export default function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  return <AuthPage mode="signin" searchParams={searchParams} />;
}
