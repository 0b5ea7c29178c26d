import { stickerFormat, webpSticker } from './sticker';

/**
 * WhatsApp animated sticker: animated WebP, exactly 512×512, ≤ 10 s, ≤ 500 KiB (WhatsApp/stickers,
 * iOS WAPacksLimits).
 */
export const whatsappWebpV1 = stickerFormat('whatsapp_webp_v1', {
  label: 'WhatsApp animated sticker (WebP, 512×512, ≤ 10 s)',
  platform: 'WhatsApp (animated sticker)',
  canvas: 512,
  maxSeconds: 10,
  capSource: 'platform',
  limitBytes: 500 * 1024,
  limitLabel: '500 KiB',
  codec: webpSticker,
});
