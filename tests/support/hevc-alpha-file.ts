import { expect } from 'vitest';
import { hevcLayers } from '../../lib/media/hevc-alpha';
import { countedProbe } from './counted-probe';

/**
 * Checks what makes `file` hevc_alpha: an hvc1-tagged HEVC video of `width`×`height` whose colour
 * layer the system FFmpeg (5.1) decodes, all `frames` of it, and a second layer (NAL units with
 * nuh_layer_id 1: the alpha) for every frame.
 */
export async function expectHevcAlpha(
  file: string,
  { width, height, frames }: { width: number; height: number; frames: number },
): Promise<void> {
  const video = (await countedProbe(file)).streams.find((s) => s.codec_type === 'video');
  expect(video).toMatchObject({
    codec_name: 'hevc',
    codec_tag_string: 'hvc1',
    width,
    height,
    nb_read_frames: String(frames),
  });
  const layers = await hevcLayers(file);
  expect([...layers.keys()].sort()).toEqual([0, 1]);
  expect(layers.get(1)).toBeGreaterThanOrEqual(frames);
}
