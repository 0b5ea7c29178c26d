import { apngSticker, stickerFormat } from './sticker';

/**
 * Signal sticker: APNG, 512×512, ≤ 3 s, ≤ 300 KiB (Signal-Desktop sticker-creator constants; 3 s
 * from community validators).
 */
export const signalApngV1 = stickerFormat('signal_apng_v1', {
  label: 'Signal sticker (APNG, 512×512, ≤ 3 s)',
  platform: 'Signal (sticker)',
  canvas: 512,
  maxSeconds: 3,
  capSource: 'platform',
  limitBytes: 300 * 1024,
  limitLabel: '300 KiB',
  codec: apngSticker,
});
