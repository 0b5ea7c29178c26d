import type { NextConfig } from 'next';

const config: NextConfig = {
  // Native and heavy server packages stay out of the bundles; the web role never loads
  // onnxruntime-node or spawns ffmpeg (workers do).
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', 'onnxruntime-node', 'node-av'],
  poweredByHeader: false,
  skipTrailingSlashRedirect: true,
  typedRoutes: false,
  typescript: { ignoreBuildErrors: true },
};

export default config;
