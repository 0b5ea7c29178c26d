import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetForm } from '@/components/auth/reset-form';
import { Alert, Card } from '@/components/ui/card';
import { resetTokenValid } from '@/lib/services/accounts/password-reset';
import { defaultPorts } from '@/lib/services/ports';
import { resetPasswordAction } from '../actions';

export const metadata: Metadata = { title: 'Set a new password — Keyout' };
export const dynamic = 'force-dynamic';

export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const { token } = await searchParams;
  const valid = token ? await resetTokenValid(defaultPorts, token) : false;
  return (
    <Card>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">Set a new password</h1>
      {valid && token ? (
        <>
          <p className="mb-6 text-sm text-slate-600">
            Choose a new password. You will be signed out everywhere else.
          </p>
          <ResetForm token={token} action={resetPasswordAction} />
        </>
      ) : (
        <div className="mt-4 space-y-4">
          <Alert tone="warning">
            This reset link has expired or was already used. Links work once, for one hour.
          </Alert>
          <Link
            href="/forgot-password"
            className="text-sm font-medium text-indigo-700 hover:text-indigo-500"
          >
            Ask for a new link
          </Link>
        </div>
      )}
    </Card>
  );
}
