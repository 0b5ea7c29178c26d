import { resizeMap, type FloatMap } from '../matte/image';
import type { TensorData } from '../runtime';
import type { Box } from './detector';

/**
 * The open-vocabulary slot: a self-hoster who has a segmenter that takes a picture and a phrase
 * (CLIPSeg-like) adds it with a manifest, `MODELS_DIR/open-vocabulary.json`, and the prompt
 * parser then accepts phrases made of words in its vocabulary besides the built-in concepts.
 * Its map joins the same concept search as the detector's boxes (concept-model.ts): each region
 * of it prompts SAM with its box. The contract (docs/engine.md "Open-vocabulary slot"):
 *
 * - inputs `pixel_values` float32 [1, 3, S, S]: the picture squashed to S×S, RGB,
 *   (value / 255 − mean) / std per channel; `input_ids` and `attention_mask` int64 [1, T]: the
 *   phrase's token ids (below) and 1 for each real token, 0 for padding;
 * - output `logits` float32 [1, H, W] or [1, 1, H, W], any H×W over the same square: per pixel
 *   how much it shows the phrase, as logits (`"output": "logits"`) or probabilities;
 * - tokens: the phrase is lowercased and cut into words of letters and digits; each word is the
 *   vocabulary line `word</w>` (CLIP's whole-word tokens) or else `word`, its id the line
 *   number from 0; `bos` and `eos` (when given) go around them, `pad` fills up to T. A word
 *   the vocabulary lacks makes the phrase unknown: the request is refused before any charge.
 */
export interface OpenVocabularyManifest {
  id: string;
  /** The ONNX file in MODELS_DIR. */
  file: string;
  /** Its sha256, checked before the worker first loads it. */
  sha256: string;
  license: string;
  image: {
    size: number;
    mean: readonly [number, number, number];
    std: readonly [number, number, number];
  };
  text: {
    /** Vocabulary file in MODELS_DIR: one token per line, the line number (from 0) its id. */
    vocabulary: string;
    maxTokens: number;
    bos?: number;
    eos?: number;
    pad: number;
  };
  output: 'logits' | 'probability';
}

export const OPEN_VOCABULARY_IO = {
  image: 'pixel_values',
  ids: 'input_ids',
  mask: 'attention_mask',
  output: 'logits',
} as const;

/** A manifest with its vocabulary read: what the parser and the concept search need. */
export interface OpenVocabulary {
  manifest: OpenVocabularyManifest;
  /** Token → id. */
  ids: ReadonlyMap<string, number>;
}

export function openVocabulary(
  manifest: OpenVocabularyManifest,
  vocabularyText: string,
): OpenVocabulary {
  const ids = new Map<string, number>();
  vocabularyText.split(/\r?\n/).forEach((token, i) => {
    if (token && !ids.has(token)) ids.set(token, i);
  });
  return { manifest, ids };
}

/** The phrase's words as the tokeniser cuts them. */
export const wordsOf = (phrase: string): string[] => phrase.toLowerCase().match(/[a-z0-9]+/g) ?? [];

function idOf(v: OpenVocabulary, word: string): number | undefined {
  return v.ids.get(`${word}</w>`) ?? v.ids.get(word);
}

/** The words of a phrase the vocabulary lacks. */
export function unknownWords(v: OpenVocabulary, phrase: string): string[] {
  return wordsOf(phrase).filter((w) => idOf(v, w) === undefined);
}

/** The text inputs for a phrase whose words are all known (`unknownWords` is empty). */
export function textFeeds(v: OpenVocabulary, phrase: string): Record<string, TensorData> {
  const { maxTokens: T, bos, eos, pad } = v.manifest.text;
  const words = wordsOf(phrase).map((w) => idOf(v, w)!);
  const room = T - (bos === undefined ? 0 : 1) - (eos === undefined ? 0 : 1);
  const tokens = [
    ...(bos === undefined ? [] : [bos]),
    ...words.slice(0, Math.max(0, room)),
    ...(eos === undefined ? [] : [eos]),
  ];
  const ids = new Float32Array(T).fill(pad);
  const mask = new Float32Array(T);
  tokens.forEach((t, i) => {
    ids[i] = t;
    mask[i] = 1;
  });
  return {
    [OPEN_VOCABULARY_IO.ids]: { data: ids, dims: [1, T] },
    [OPEN_VOCABULARY_IO.mask]: { data: mask, dims: [1, T] },
  };
}

/** R, G, B planes (0..255) of any size → `pixel_values`. */
export function imageFeed(
  m: OpenVocabularyManifest,
  planes: Float32Array[],
  width: number,
  height: number,
): TensorData {
  const S = m.image.size;
  const n = S * S;
  const data = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) {
    const scaled = resizeMap({ data: planes[c]!, width, height }, S, S).data;
    const mean = m.image.mean[c]!;
    const std = m.image.std[c]!;
    for (let i = 0; i < n; i++) data[c * n + i] = (scaled[i]! / 255 - mean) / std;
  }
  return { data, dims: [1, 3, S, S] };
}

/** The model's answer → probability over the picture at `width` × `height`. */
export function openVocabularyMap(
  m: OpenVocabularyManifest,
  out: TensorData,
  width: number,
  height: number,
): FloatMap {
  const [h, w] = out.dims.slice(-2) as [number, number];
  if (out.data.length !== w * h)
    throw new Error(
      `Open-vocabulary model ${m.id} answered ${out.dims.join('×')}; ` +
        'the contract is [1, H, W] or [1, 1, H, W]',
    );
  const p =
    m.output === 'logits' ? Float32Array.from(out.data, (v) => 1 / (1 + Math.exp(-v))) : out.data;
  return resizeMap({ data: p, width: w, height: h }, width, height);
}

/**
 * The regions of a map (4-connected, p ≥ `cut`) with at least `minShare` of its pixels: each
 * one's box and its best probability, best first.
 */
export function mapRegions(
  map: FloatMap,
  cut: number,
  minShare: number,
): { box: Box; score: number }[] {
  const { width: W, height: H, data } = map;
  const seen = new Uint8Array(W * H);
  const found: { box: Box; score: number }[] = [];
  const stack: number[] = [];
  for (let start = 0; start < data.length; start++) {
    if (seen[start] || data[start]! < cut) continue;
    let [x0, y0, x1, y1, size, score] = [W, H, 0, 0, 0, 0];
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % W;
      const y = (i - x) / W;
      size++;
      score = Math.max(score, data[i]!);
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x + 1);
      y1 = Math.max(y1, y + 1);
      for (const j of [
        x > 0 ? i - 1 : -1,
        x < W - 1 ? i + 1 : -1,
        y > 0 ? i - W : -1,
        y < H - 1 ? i + W : -1,
      ]) {
        if (j >= 0 && !seen[j] && data[j]! >= cut) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    if (size >= minShare * W * H) found.push({ box: [x0, y0, x1, y1], score });
  }
  return found.sort((a, b) => b.score - a.score);
}
