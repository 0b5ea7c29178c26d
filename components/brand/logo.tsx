import Link from 'next/link';

export function Logo({ className = '' }: { className?: string }) {
  return (
    <span
      className={
        'inline-flex items-center gap-2 font-semibold tracking-tight ' +
        `text-slate-900 ${className}`
      }
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
        <defs>
          <pattern id="logo-checker" width="8" height="8" patternUnits="userSpaceOnUse">
            <rect width="8" height="8" fill="#e0e7ff" />
            <rect width="4" height="4" fill="#c7d2fe" />
            <rect x="4" y="4" width="4" height="4" fill="#c7d2fe" />
          </pattern>
        </defs>
        <rect width="32" height="32" rx="8" fill="url(#logo-checker)" />
        <path
          d="M16 6a5 5 0 1 1 0 10a5 5 0 0 1 0-10Zm-9 21c0-5 4-8.5 9-8.5s9 3.5 9 8.5Z"
          fill="#4f46e5"
        />
      </svg>
      <span className="text-lg">Keyout</span>
    </span>
  );
}

/** The logo as a link home (or to `href`), with a visible focus ring. */
export function LogoLink({ href = '/', className = '' }: { href?: string; className?: string }) {
  return (
    <Link
      href={href}
      className={(
        `${className} rounded focus-visible:outline-2 ` + 'focus-visible:outline-indigo-600'
      ).trim()}
    >
      <Logo />
    </Link>
  );
}
