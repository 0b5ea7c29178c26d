import { apngSticker, stickerFormat } from './sticker';

/**
 * iMessage sticker (MSSticker, regular size): APNG, 408×408 pixels (136 pt @3x), < 500 KB.
 * Apple states no duration; Keyout caps the loop at 5 s so 408×408 frames fit the budget.
 */
export const imessageApngV1 = stickerFormat('imessage_apng_v1', {
  label: 'iMessage sticker (APNG, 408×408, ≤ 5 s)',
  platform: 'iMessage (sticker, regular size)',
  canvas: 408,
  maxSeconds: 5,
  capSource: 'keyout',
  limitBytes: 500_000,
  limitLabel: '500 KB',
  codec: apngSticker,
});
