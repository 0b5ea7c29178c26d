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
          // No client-library picker: its markup breaks ARIA rules.
          hiddenClients: true,
        }}
      />
    </div>
  );
}
