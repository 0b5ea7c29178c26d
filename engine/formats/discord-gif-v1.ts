import { gifSticker, stickerFormat } from './sticker';

/** Discord sticker as GIF: 320×320, ≤ 5 s, ≤ 512 KiB, binary transparency (discord.com/developers, create-guild-sticker). */
export const discordGifV1 = stickerFormat('discord_gif_v1', {
  label: 'Discord sticker (GIF, 320×320, ≤ 5 s)',
  platform: 'Discord (sticker)',
  canvas: 320,
  maxSeconds: 5,
  capSource: 'platform',
  limitBytes: 512 * 1024,
  limitLabel: '512 KiB',
  codec: gifSticker,
});
