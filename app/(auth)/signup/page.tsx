import type { Metadata } from 'next';
import { AuthPage } from '../auth-page';

export const metadata: Metadata = { title: 'Create an account — Keyout' };

export default function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  return <AuthPage mode="signup" searchParams={searchParams} />;
}
