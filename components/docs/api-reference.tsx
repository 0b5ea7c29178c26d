'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

/**
 * The OpenAPI document rendered by Scalar, bundled from our own origin: no CDN fonts, no
 * telemetry, no third-party request proxy, no hosted "try it" client.
 */
export function ApiReference({ document }: { document: string }) {
  return (
    // No overflow clipping here: it would make Scalar's sticky sidebar scroll away with the page.
    <div className="keyout-api-reference rounded-xl border border-slate-200 bg-white">
      <ApiReferenceReact
        configuration={{
          content: document,
          withDefaultFonts: false,
          telemetry: false,
          hideClientButton: true,
          hideTestRequestButton: true,
          hideDarkModeToggle: true,
          forceDarkModeState: 'light',
          layout: 'modern',
          showSidebar: true,
          // Scalar's hosted extras (AI agent, developer toolbar) would call third-party services.
          showDeveloperTools: 'never',
          agent: { disabled: true },
          // No client-library picker (its markup breaks ARIA rules), and Scalar's greys darkened to
          // reach WCAG AA contrast on white.
          hiddenClients: true,
          customCss: `.keyout-api-reference .light-mode { --scalar-color-2: #4b5563; --scalar-color-3: #4b5563; --scalar-color-green: #047857; --scalar-color-blue: #1d4ed8; --scalar-color-orange: #b45309; --scalar-color-red: #b91c1c; --scalar-color-purple: #6d28d9; --scalar-color-yellow: #92400e; }`,
        }}
      />
    </div>
  );
}
