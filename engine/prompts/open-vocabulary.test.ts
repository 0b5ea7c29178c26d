import { describe, expect, it } from 'vitest';
import { parseConcepts, UnknownConceptError } from './concepts';
import {
  mapRegions,
  openVocabulary,
  openVocabularyMap,
  textFeeds,
  unknownWords,
  type OpenVocabularyManifest,
} from './open-vocabulary';

const manifest: OpenVocabularyManifest = {
  id: 'words',
  file: 'words.onnx',
  sha256: '0'.repeat(64),
  license: 'test',
  image: { size: 32, mean: [0, 0, 0], std: [1, 1, 1] },
  text: { vocabulary: 'words.txt', maxTokens: 6, bos: 1, eos: 2, pad: 0 },
  output: 'logits',
};
const vocab = openVocabulary(
  manifest,
  ['<pad>', '<start>', '<end>', 'the', 'red', 'flag</w>', 'thing</w>', 'big'].join('\n'),
);

describe('the open-vocabulary tokeniser', () => {
  it(
    'looks words up as CLIP whole words first, then as they are, ' + 'and pads with attention 0',
    () => {
      const feeds = textFeeds(vocab, 'The RED thing');
      expect([...feeds.input_ids!.data]).toEqual([1, 3, 4, 6, 2, 0]);
      expect([...feeds.attention_mask!.data]).toEqual([1, 1, 1, 1, 1, 0]);
      expect(feeds.input_ids!.dims).toEqual([1, 6]);
    },
  );
  it('cuts a long phrase to fit, keeping the end token', () => {
    expect([...textFeeds(vocab, 'the big red flag the big').input_ids!.data]).toEqual([
      1, 3, 7, 4, 5, 2,
    ]);
  });
  it('names the words it does not know', () => {
    expect(unknownWords(vocab, 'the zorblax and the flumph')).toEqual(['zorblax', 'and', 'flumph']);
  });
});

describe('parseConcepts with an open-vocabulary model', () => {
  it('keeps built-in concepts and takes phrases whose words the model knows', () => {
    expect(parseConcepts('the dog and the red flag', vocab)).toEqual([
      { kind: 'object', name: 'dog', classIndex: 16 },
      { kind: 'open', name: 'the red flag' },
    ]);
  });
  it('refuses a phrase with a word the model does not know, naming the word', () => {
    const e = (() => {
      try {
        parseConcepts('the red zorblax', vocab);
      } catch (err) {
        return err;
      }
    })() as UnknownConceptError;
    expect(e).toBeInstanceOf(UnknownConceptError);
    expect(e.phrases).toEqual(['the red zorblax']);
    expect(e.words).toEqual(['zorblax']);
  });
  it('refuses the same phrase without one, as before', () => {
    expect(() => parseConcepts('the red flag')).toThrow(UnknownConceptError);
  });
});

describe('the open-vocabulary map', () => {
  it(
    'reads logits over the square as probability over the picture, ' +
      'and its regions as boxes, best first',
    () => {
      const S = 8;
      const logits = new Float32Array(S * S).fill(-8);
      for (let y = 1; y < 3; y++) for (let x = 1; x < 3; x++) logits[y * S + x] = 2;
      for (let y = 4; y < 8; y++) for (let x = 4; x < 8; x++) logits[y * S + x] = 6;
      const map = openVocabularyMap(manifest, { data: logits, dims: [1, S, S] }, 16, 8);
      expect(map.width).toBe(16);
      const regions = mapRegions(map, 0.5, 0.01);
      expect(regions).toHaveLength(2);
      expect(regions[0]!.score).toBeGreaterThan(0.99);
      expect(regions[0]!.box[0]).toBeGreaterThanOrEqual(7);
      expect(regions[1]!.box[2]).toBeLessThanOrEqual(7);
      expect(mapRegions(map, 0.5, 0.2)).toHaveLength(1);
      expect(() => openVocabularyMap(manifest, { data: logits, dims: [1, 4, 4] }, 16, 8)).toThrow(
        /contract/,
      );
    },
  );
});
