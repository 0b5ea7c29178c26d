import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-cli-it-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function keyout(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/keyout.mjs', ...args], { cwd: ROOT, timeout: 280_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('keyout remove', () => {
  it('fails with a clear message and a non-zero exit', async () => {
    const missing = await keyout(['remove', path.join(tmp, 'nope.mp4'), '-o', path.join(tmp, 'x.mp4')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/input not found/);
    const bad = await keyout(['remove', path.join(tmp, 'nope.mp4'), '-o', path.join(tmp, 'x.mp4'), '--blur', 'sideways']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--blur must be background or subject/);
    const noOut = await keyout(['remove', path.join(tmp, 'nope.mp4')]);
    expect(noOut.stderr).toMatch(/-o <output> is required/);
  });

  it('segments and renders a short clip to a transparent WebM', async () => {
    const input = path.join(tmp, 'clip.mp4');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=0.5', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', input]);
    const out = path.join(tmp, 'out.webm');
    const res = await keyout(['remove', input, '-o', out, '--model', 'service-human']);
    expect(res.stderr).toMatch(/segmented 5 frames/);
    expect(res.code).toBe(0);
    expect(fs.statSync(out).size).toBeGreaterThan(0);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'csv=p=0', out]);
    expect(stdout.trim()).toBe('vp9,160,120');
  });
});
