/** TF.js weights as ONNX wants them: shared by the TF.js graph converter and the CenterNet one. */

/**
 * An IEEE 754 half-precision number (its 16 bits) as a JavaScript number: weights stored as
 * float16.
 */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** TF conv weights HWIO → ONNX OIHW; depthwise (H, W, C, multiplier) → (C·multiplier, 1, H, W). */
export function hwioToOihw(
  shape: readonly number[],
  src: Float32Array,
  depthwise: boolean,
): { dims: number[]; data: Float32Array } {
  const [kh, kw, a, b] = shape as [number, number, number, number];
  const out = new Float32Array(src.length);
  const outCh = depthwise ? a * b : b;
  const inCh = depthwise ? 1 : a;
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < a; i++)
        for (let o = 0; o < b; o++) {
          const s = ((y * kw + x) * a + i) * b + o;
          const oc = depthwise ? i * b + o : o;
          const ic = depthwise ? 0 : i;
          out[((oc * inCh + ic) * kh + y) * kw + x] = src[s]!;
        }
  return { dims: [outCh, inCh, kh, kw], data: out };
}
