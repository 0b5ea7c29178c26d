import { MediaError } from './ffmpeg';

/**
 * node-av: FFmpeg 8.1 in-process (the `@seydx/node-av-*` binding), an optional dependency used
 * where the system ffmpeg falls short — today, HEVC with an alpha layer (x265 4). Loaded on
 * first use; `null` where it is not installed or does not load on this platform.
 */
export type Libav = typeof import('node-av/api') & {
  constants: typeof import('node-av/constants');
  Rational: typeof import('node-av/lib').Rational;
};

let loaded: Promise<Libav | null> | undefined;

export function libav(): Promise<Libav | null> {
  loaded ??= (async () => {
    try {
      const [api, constants, lib] = await Promise.all([
        import('node-av/api'),
        import('node-av/constants'),
        import('node-av/lib'),
      ]);
      // Failures come back as return codes (thrown errors); FFmpeg's own log would only add noise
      // such as the HEVC decoder's remarks on every alpha-layer header.
      lib.Log.setLevel(constants.AV_LOG_FATAL);
      return { ...api, constants, Rational: lib.Rational };
    } catch {
      return null;
    }
  })();
  return loaded;
}

export async function requireLibav(what: string): Promise<Libav> {
  const av = await libav();
  if (!av)
    throw new MediaError(
      `${what} needs the optional node-av package (FFmpeg 8 ` +
        'in-process), which is not installed on this server.',
    );
  return av;
}
