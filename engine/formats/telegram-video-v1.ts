import { stickerFormat, vp9Sticker } from './sticker';

/**
 * Telegram video sticker: VP9 WebM with alpha, 512×512, ≤ 3 s, ≤ 30 fps, no audio, ≤ 256 KiB
 * (core.telegram.org/stickers).
 */
export const telegramVideoV1 = stickerFormat('telegram_video_v1', {
  label: 'Telegram video sticker (WebM VP9, 512×512, ≤ 3 s)',
  platform: 'Telegram (video sticker)',
  canvas: 512,
  maxSeconds: 3,
  capSource: 'platform',
  limitBytes: 256 * 1024,
  limitLabel: '256 KiB',
  codec: vp9Sticker,
});
