import type { ReactNode } from 'react';
import { signOutAction } from '@/app/(auth)/actions';
import { LogoLink } from '@/components/brand/logo';
import type { CurrentUser } from '@/lib/auth/current-user';
import { NavLinks, type NavItem } from './nav-links';

export function DashboardShell({ user, children }: { user: CurrentUser; children: ReactNode }) {
  const items: NavItem[] = [
    { href: '/jobs', label: 'Jobs' },
    { href: '/studio', label: 'Studio' },
    { href: '/credits', label: 'Credits' },
    { href: '/keys', label: 'API keys' },
    { href: '/docs', label: 'API docs' },
    ...(user.isAdmin ? [{ href: '/admin', label: 'Admin' }] : []),
  ];
  return (
    <div className="min-h-screen bg-slate-50 lg:flex">
      <a
        href="#main"
        className={
          'sr-only focus:not-sr-only focus:absolute focus:left-4 ' +
          'focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 ' +
          'focus:py-2'
        }
      >
        Skip to content
      </a>
      <aside
        className={
          'border-b border-slate-200 bg-white lg:sticky lg:top-0 lg:flex ' +
          'lg:h-screen lg:w-60 lg:shrink-0 lg:flex-col lg:border-r ' +
          'lg:border-b-0'
        }
      >
        <div className="flex items-center justify-between px-4 py-3 lg:px-5 lg:py-5">
          <LogoLink href="/jobs" />
          <SignOut
            formClassName="lg:hidden"
            className="rounded-lg px-3 py-1.5 text-sm text-slate-600 hover:bg-slate-100"
          />
        </div>
        <nav aria-label="Main" className="px-3 pb-3 lg:flex-1 lg:pb-0">
          <NavLinks items={items} />
        </nav>
        <div className="hidden border-t border-slate-200 p-4 lg:block">
          <p className="truncate text-sm font-medium text-slate-900" title={user.email}>
            {user.name || user.email}
          </p>
          {user.name ? <p className="truncate text-xs text-slate-500">{user.email}</p> : null}
          <SignOut
            formClassName="mt-3"
            className={
              'w-full rounded-lg border border-slate-300 px-3 py-1.5 text-sm ' +
              'text-slate-700 hover:bg-slate-50 focus-visible:outline-2 ' +
              'focus-visible:outline-indigo-600'
            }
          />
        </div>
      </aside>
      <main
        id="main"
        className="mx-auto w-full max-w-6xl min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-10"
      >
        {children}
      </main>
    </div>
  );
}

/** A sign-out button (the narrow layout's top bar and the sidebar's foot each have one). */
function SignOut({ formClassName, className }: { formClassName: string; className: string }) {
  return (
    <form action={signOutAction} className={formClassName}>
      <button type="submit" className={className}>
        Sign out
      </button>
    </form>
  );
}
