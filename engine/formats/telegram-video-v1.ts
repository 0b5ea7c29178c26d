import { stickerFormat, vp9Sticker } from './sticker';

/** Telegram video sticker: VP9 WebM with alpha, 512×512, ≤ 3 s, ≤ 30 fps, no audio, ≤ 256 KiB (core.telegram.org/stickers). */
export const telegramVideoV1 = stickerFormat('telegram_video_v1', {
  label: 'Telegram video sticker (WebM VP9, 512×512, ≤ 3 s)',
  platform: 'Telegram (video sticker)',
  canvas: 512,
  maxSeconds: 3,
  capSource: 'platform',
  limitBytes: 256 * 1024,
  limitLabel: '256 KiB',
  codec: vp9Sticker,
  // crf on servers (libvpx); in the browser, the share of the budget aimed at (engine/formats/sticker.ts).
  quality: [
    { crf: 32, budgetShare: 0.85 },
    { crf: 40, budgetShare: 0.7 },
    { crf: 48, budgetShare: 0.55 },
  ],
  fpsSteps: [24, 20, 15, 12],
});
