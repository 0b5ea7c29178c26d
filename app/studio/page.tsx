import type { Metadata } from 'next';
import Link from 'next/link';
import { LogoLink } from '@/components/brand/logo';
import { LinkButton } from '@/components/ui/button';
import { Studio } from '@/components/studio/studio';
import { currentUser } from '@/lib/auth/current-user';

export const metadata: Metadata = {
  title: 'Studio — remove video backgrounds privately in your browser · Keyout',
};
export const dynamic = 'force-dynamic';

export default async function StudioPage({
  searchParams,
}: {
  searchParams: Promise<{ backend?: string; people?: string }>;
}) {
  const user = await currentUser();
  const { backend, people } = await searchParams;
  // ?backend=webgpu|wasm and ?people=rvm|selfie override the automatic choices (for comparisons and
  // smoke tests).
  const force = backend === 'webgpu' || backend === 'wasm' ? backend : null;
  const forcePeople = people === 'rvm' || people === 'selfie' ? people : null;
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3 sm:px-6">
          <LogoLink />
          <nav aria-label="Site" className="flex items-center gap-2">
            {user ? (
              <LinkButton href="/jobs" size="sm" variant="secondary">
                Dashboard
              </LinkButton>
            ) : (
              <>
                <Link
                  href="/signin?next=/studio"
                  className={
                    'rounded-lg px-3 py-2 text-sm font-medium text-slate-700 ' +
                    'hover:bg-slate-100'
                  }
                >
                  Sign in
                </Link>
                <LinkButton href="/signup" size="sm">
                  Create account
                </LinkButton>
              </>
            )}
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Studio</h1>
        <p className="mt-1 mb-6 max-w-2xl text-sm text-slate-600">
          Remove the background from a video without uploading it. Free, no account — the model runs
          in this tab.
        </p>
        <Studio signedIn={Boolean(user)} forceBackend={force} forcePeople={forcePeople} />
      </main>
    </div>
  );
}
