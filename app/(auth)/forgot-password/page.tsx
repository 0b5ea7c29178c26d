import type { Metadata } from 'next';
import { ForgotForm } from '@/components/auth/forgot-form';
import { Card } from '@/components/ui/card';
import { forgotPasswordAction } from '../actions';

export const metadata: Metadata = { title: 'Forgot your password? — Keyout' };

export default function ForgotPasswordPage() {
  return (
    <Card>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">Forgot your password?</h1>
      <p className="mb-6 text-sm text-slate-600">
        Enter your e-mail address and we will send you a link to set a new one.
      </p>
      <ForgotForm action={forgotPasswordAction} />
    </Card>
  );
}
