import { DISCORD_STICKER_LIMITS } from './discord-apng-v1';
import { gifSticker, stickerFormat } from './sticker';

/** Discord sticker as GIF, binary transparency. */
export const discordGifV1 = stickerFormat('discord_gif_v1', {
  label: 'Discord sticker (GIF, 320×320, ≤ 5 s)',
  ...DISCORD_STICKER_LIMITS,
  codec: gifSticker,
});
