import { readZipEntry } from '../zip';
import { MediaError } from '../ffmpeg';
import { fail, videoFacts, type Check, type Facts } from './check';

/**
 * A pro bundle: exactly its members, a Keyout manifest, colour and matte of the promised stream,
 * the audio.
 */
export async function bundleColorAlpha(c: Check): Promise<Facts> {
  const members = c.plan.members;
  if (!members) return fail('the bundle has no members.');
  const entries = await c.zipEntries();
  const expectedNames = [
    'color.mp4',
    'alpha.mp4',
    ...(members.audio ? ['audio.m4a'] : []),
    'manifest.json',
  ];
  const names = entries.map((e) => e.name).sort();
  if (names.join() !== [...expectedNames].sort().join())
    fail(`the bundle holds ${names.join(', ')}; expected ${expectedNames.join(', ')}.`);
  if (entries.some((e) => e.size === 0)) fail('the bundle has an empty member.');
  const manifest = await readZipEntry(c.file, 'manifest.json');
  try {
    const json = JSON.parse(manifest?.toString() ?? '') as { kind?: string };
    if (json.kind !== 'keyout.pro_bundle') fail('the bundle manifest is not a Keyout manifest.');
  } catch (e) {
    if (e instanceof MediaError) throw e;
    fail('the bundle manifest is not JSON.');
  }
  const color = await c.probe(members.color, 'mp4');
  const v = c.checkVideoStream(color, 'h264', c.p.height, 'color.mp4');
  if (color.audio) fail('color.mp4 should carry no audio (audio.m4a does).');
  const alpha = await c.probe(members.alpha, 'mp4');
  c.checkVideoStream(alpha, 'h264', c.p.height, 'alpha.mp4');
  const range = await c.matteCheck([], members.alpha, 'mp4', 'null');
  if (members.audio) {
    const audio = await c.probe(members.audio, 'mp4');
    if (audio.audio?.codec !== 'aac') fail('audio.m4a has no AAC audio.');
  } else if (c.p.hasAudio) {
    fail('the bundle lost the source audio.');
  }
  return videoFacts(v, color.formatDuration, range, Boolean(members.audio));
}
