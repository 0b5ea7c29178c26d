'use client';

import dynamic from 'next/dynamic';

/**
 * The API reference (a large bundle) loads after the page is on screen, so the quick start
 * above it can be read and copied at once.
 */
export const LazyApiReference = dynamic(
  () => import('./api-reference').then((m) => m.ApiReference),
  {
    ssr: false,
    loading: () => (
      <p
        className="rounded-xl border border-slate-200 bg-white p-6 text-sm text-slate-600"
        role="status"
      >
        Loading the API reference…
      </p>
    ),
  },
);
