/**
 * Pure readers of what encoders wrote (lib/media runs them): HEVC layers.
 */

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
