import { gifSticker, stickerFormat } from './sticker';

/**
 * Slack custom emoji: GIF, 128×128, < 128 KB (docs.slack.dev admin.emoji.add). Slack states no
 * duration; Keyout caps the loop at 5 s.
 */
export const slackGifV1 = stickerFormat('slack_gif_v1', {
  label: 'Slack emoji (GIF, 128×128, ≤ 5 s)',
  platform: 'Slack (custom emoji)',
  canvas: 128,
  maxSeconds: 5,
  capSource: 'keyout',
  limitBytes: 128_000,
  limitLabel: '128 KB',
  codec: gifSticker,
});
