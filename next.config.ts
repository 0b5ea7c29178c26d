import type { NextConfig } from 'next';

// Keyout sends nothing anywhere unless its operator configures it (docs/operations.md "What
// Keyout sends, and where"): Next's anonymous telemetry is off for every Next command that loads
// this config (build, start, dev), however it was started, and for the processes Next starts.
process.env.NEXT_TELEMETRY_DISABLED = '1';

const config: NextConfig = {
  // Native and heavy server packages stay out of the bundles; the web role never loads
  // onnxruntime-node or spawns ffmpeg (workers do).
  serverExternalPackages: [
    'better-sqlite3',
    '@prisma/adapter-better-sqlite3',
    'onnxruntime-node',
    'node-av',
  ],
  poweredByHeader: false,
  skipTrailingSlashRedirect: true,
  typedRoutes: false,
  typescript: { ignoreBuildErrors: true },
};

export default config;
