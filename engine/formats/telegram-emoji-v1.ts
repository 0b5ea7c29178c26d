import { stickerFormat, vp9Sticker } from './sticker';

/**
 * Telegram video emoji: VP9 WebM with alpha, exactly 100×100, ≤ 3 s, ≤ 30 fps, ≤ 256 KiB
 * (core.telegram.org/stickers).
 */
export const telegramEmojiV1 = stickerFormat('telegram_emoji_v1', {
  label: 'Telegram video emoji (WebM VP9, 100×100, ≤ 3 s)',
  platform: 'Telegram (custom emoji)',
  canvas: 100,
  maxSeconds: 3,
  capSource: 'platform',
  limitBytes: 256 * 1024,
  limitLabel: '256 KiB',
  codec: vp9Sticker,
});
