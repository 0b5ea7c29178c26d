import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { fromLavfi, H264, syntheticClip } from '../../lib/media/fixtures';
import { streamEntries } from '../support/counted-probe';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-cli-it-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function keyout(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/keyout.mjs', ...args], {
      cwd: ROOT,
      timeout: 280_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** `keyout remove` of an input that does not exist, to `output` in the temp folder. */
const removeMissing = (output: string, ...flags: string[]) =>
  keyout(['remove', path.join(tmp, 'nope.mp4'), '-o', path.join(tmp, output), ...flags]);

describe('keyout remove', () => {
  it('fails with a clear message and a non-zero exit', async () => {
    const missing = await removeMissing('x.mp4');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/input not found/);
    const bad = await removeMissing('x.mp4', '--blur', 'sideways');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--blur must be background or subject/);
    const noOut = await keyout(['remove', path.join(tmp, 'nope.mp4')]);
    expect(noOut.stderr).toMatch(/-o <output> is required/);
    // The output's name is checked against what would be written before any work.
    const unknown = await removeMissing('x.xyz');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/cannot tell the format from the name x\.xyz/);
    const mismatch = await removeMissing('x.mp4', '--format', 'webm_vp9');
    expect(mismatch.stderr).toMatch(/webm_vp9 writes a \.webm file/);
    const gif = await removeMissing('x.gif', '--color', '#FFFFFF');
    expect(gif.stderr).toMatch(/an opaque video is written as \.mp4, \.webm or \.mov/);
  });

  it('segments and renders a short clip to a transparent WebM', async () => {
    const input = path.join(tmp, 'clip.mp4');
    await fromLavfi(input, 'testsrc2=size=160x120:rate=10:duration=0.5', H264);
    const out = path.join(tmp, 'out.webm');
    const res = await keyout(['remove', input, '-o', out, '--model', 'service-human']);
    expect(res.stderr).toMatch(/segmented 5 frames/);
    expect(res.code).toBe(0);
    expect(fs.statSync(out).size).toBeGreaterThan(0);
    expect(await streamEntries(out, 'stream=codec_name,width,height')).toEqual([
      { codec_name: 'vp9', width: 160, height: 120 },
    ]);
    // With a colour, .webm is an opaque VP9 on it (no alpha_mode tag).
    const blue = path.join(tmp, 'blue.webm');
    expect(
      (
        await keyout([
          'remove',
          input,
          '-o',
          blue,
          '--model',
          'service-human',
          '--color',
          '#2040C0',
        ])
      ).code,
    ).toBe(0);
    expect(await streamEntries(blue, 'stream=codec_name,pix_fmt:stream_tags=alpha_mode')).toEqual([
      { codec_name: 'vp9', pix_fmt: 'yuv420p', tags: {} },
    ]);
  });

  it(
    'runs itself again with one malloc arena, and a SIGTERM sent to ' + 'it alone stops both',
    async () => {
      const input = path.join(tmp, 'long.mp4');
      await syntheticClip(input, { seconds: 60, size: '320x240' });
      const env = { ...process.env };
      delete env.MALLOC_ARENA_MAX;
      const launcher = spawn(
        process.execPath,
        [
          'bin/keyout.mjs',
          'remove',
          input,
          '-o',
          path.join(tmp, 'long.webm'),
          '--model',
          'service-human',
        ],
        { cwd: ROOT, env, stdio: 'ignore' },
      );
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        launcher.on('exit', (code, signal) => resolve({ code, signal })),
      );
      const environ = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const children = (pid: number) =>
        fs
          .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number);
      let child: number | undefined;
      for (let i = 0; i < 200 && child === undefined; i++) {
        child = children(launcher.pid!)[0];
        if (child === undefined) await new Promise((r) => setTimeout(r, 50));
      }
      expect(child).toBeDefined();
      expect(environ(child!)).toContain('MALLOC_ARENA_MAX=1');
      expect(environ(launcher.pid!).some((v) => v.startsWith('MALLOC_ARENA_MAX='))).toBe(false);
      // Let the CLI get into its work (ffmpeg started) before stopping it.
      for (let i = 0; i < 400 && children(child!).length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      const ffmpegs = children(child!);
      expect(ffmpegs.length).toBeGreaterThan(0);
      launcher.kill('SIGTERM');
      expect(await ended).toEqual({ code: null, signal: 'SIGTERM' });
      expect(fs.existsSync(`/proc/${child}`)).toBe(false);
      // Its ffmpeg processes lose their pipes and end too.
      for (let i = 0; i < 100 && ffmpegs.some((pid) => fs.existsSync(`/proc/${pid}`)); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(ffmpegs.filter((pid) => fs.existsSync(`/proc/${pid}`))).toEqual([]);
    },
  );
});
