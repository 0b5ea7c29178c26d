import { apngSticker, stickerFormat } from './sticker';

/**
 * Discord's sticker limits, whatever the codec: 320×320, ≤ 5 s, ≤ 512 KiB (discord.com/developers,
 * create-guild-sticker).
 */
export const DISCORD_STICKER_LIMITS = {
  platform: 'Discord (sticker)',
  canvas: 320,
  maxSeconds: 5,
  capSource: 'platform',
  limitBytes: 512 * 1024,
  limitLabel: '512 KiB',
} as const;

/** Discord sticker: APNG. */
export const discordApngV1 = stickerFormat('discord_apng_v1', {
  label: 'Discord sticker (APNG, 320×320, ≤ 5 s)',
  ...DISCORD_STICKER_LIMITS,
  codec: apngSticker,
});
