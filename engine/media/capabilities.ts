/**
 * Pure readers of what the local ffmpeg says about itself (lib/media/capabilities.ts runs it).
 */

/** "ffmpeg version 7.1.1-…" / "ffmpeg version n7.1" → [7, 1]; git builds ("N-11xxx") → null. */
export function ffmpegVersion(versionText: string): [number, number] | null {
  const m = /ffmpeg version n?(\d+)\.(\d+)/.exec(versionText);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The pixel formats an encoder lists in `ffmpeg -h encoder=<name>`. */
export function encoderPixelFormats(helpText: string): string[] {
  const m = /Supported pixel formats:([^\n]*)/.exec(helpText);
  return m?.[1] ? m[1].trim().split(/\s+/) : [];
}

/**
 * libx265 can write an alpha layer when the wrapper lists an alpha pixel format, which it does
 * only when built against x265 4+ on FFmpeg 7.1+. Git builds without a version number count when
 * the pixel format is there.
 */
export function hevcAlphaAdvertised(versionText: string, libx265Help: string): boolean {
  const v = ffmpegVersion(versionText);
  const recentEnough = v === null || v[0] > 7 || (v[0] === 7 && v[1] >= 1);
  return recentEnough && encoderPixelFormats(libx265Help).includes('yuva420p');
}

/**
 * Counts HEVC NAL units per layer in an Annex B stream (start codes 00 00 01). The alpha layer
 * of an HEVC-with-alpha file travels in NAL units with nuh_layer_id > 0.
 */
export function hevcLayerCounts(annexB: Uint8Array): Map<number, number> {
  const counts = new Map<number, number>();
  for (let i = 0; i + 4 < annexB.length; i++) {
    if (annexB[i] === 0 && annexB[i + 1] === 0 && annexB[i + 2] === 1) {
      const b0 = annexB[i + 3]!;
      const b1 = annexB[i + 4]!;
      const layer = ((b0 & 1) << 5) | (b1 >> 3);
      counts.set(layer, (counts.get(layer) ?? 0) + 1);
      i += 4;
    }
  }
  return counts;
}
