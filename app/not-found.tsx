import type { Metadata } from 'next';
import Link from 'next/link';
import { Logo } from '@/components/brand/logo';
import { LinkButton } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Page not found — Keyout' };

/** Any unknown address (and a job that is not yours): a branded page with ways back. */
export default function NotFound() {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <header className="px-6 py-5">
        <Link href="/" className="inline-flex rounded">
          <Logo />
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-10 pb-16 sm:pt-20">
        <div className="w-full max-w-md text-center">
          <p className="text-sm font-semibold text-indigo-700">404</p>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">
            This page is not here
          </h1>
          <p className="mt-3 text-slate-600">
            The address may be mistyped, or what it pointed to was deleted. Jobs and files can only
            be seen by the account that made them.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <LinkButton href="/jobs">Your jobs</LinkButton>
            <LinkButton href="/" variant="secondary">
              Home
            </LinkButton>
            <LinkButton href="/studio" variant="ghost">
              Studio
            </LinkButton>
          </div>
        </div>
      </main>
    </div>
  );
}
