import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { env } from '../env';

/** A media failure whose message is safe and useful to show to the user. */
export class MediaError extends Error {
  override name = 'MediaError';
}

/**
 * A tool that ran past its time limit. Usually the host's load, not the file: callers answering
 * a client say "try again" rather than blame the upload.
 */
export class MediaTimeout extends MediaError {
  override name = 'MediaTimeout';
}

/**
 * A tool that exited with an error: its output is kept for the log (the worker logs it with the
 * error), out of the message, which may reach a user.
 */
export class ToolError extends Error {
  override name = 'ToolError';
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/**
 * Logs a tool's own output under a short reference and returns the reference. Tool output
 * ("[ffv1 @ 0x55dc…] Unsupported number 4 of slices") is for operators; users get words and
 * the reference to quote.
 */
function logToolOutput(what: string, output: string): string {
  const ref = randomBytes(4).toString('hex');
  console.error(`[media] reference ${ref}: ${what}\n${lastLines(output, 12) || '(no output)'}`);
  return ref;
}

/** A tool's failure as a user sees it: what failed, in words, and the reference to its log. */
export function toolFailure(what: string, output: string): MediaError {
  return new MediaError(`${what} (reference ${logToolOutput(what, output)}).`);
}

export interface RunOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  cwd?: string;
  /** Bytes written to the process's stdin, then stdin is closed. */
  input?: Buffer;
  /**
   * What the run does, in words ("Probing the video"): the subject of a timeout's or cancel's
   * message.
   */
  what?: string;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

const STDERR_TAIL = 64 * 1024;

function run(bin: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let killedFor: string | null = null;
    const kill = (why: string) => {
      killedFor = why;
      child.kill('SIGKILL');
    };
    const timer = opts.timeoutMs ? setTimeout(() => kill('timed out'), opts.timeoutMs) : null;
    const onAbort = () => kill('was cancelled');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-STDERR_TAIL);
    });
    child.stdin.on('error', () => undefined); // the process may exit before reading stdin
    child.stdin.end(opts.input);
    child.on('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(new Error(`${bin} could not be started (${e.message}). Is ffmpeg installed?`));
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      const subject = opts.what ?? bin;
      if (killedFor === 'timed out') return reject(new MediaTimeout(`${subject} timed out`));
      if (killedFor) return reject(new MediaError(`${subject} ${killedFor}`));
      if (code !== 0)
        return reject(new ToolError(`${bin} exited with ${code}`, lastLines(err, 12)));
      resolve({ stdout: Buffer.concat(out), stderr: err });
    });
  });
}

function lastLines(text: string, n: number): string {
  return text.trim().split('\n').slice(-n).join('\n');
}

export const ffmpeg = (args: string[], opts?: RunOptions) =>
  run(env().FFMPEG_PATH, ['-hide_banner', '-nostdin', '-y', ...args], opts);

export const ffprobe = (args: string[], opts?: RunOptions) =>
  run(env().FFPROBE_PATH, ['-hide_banner', ...args], opts);

/** A long-running ffmpeg with streaming stdin/stdout (raw frames in or out). */
export function spawnFfmpeg(args: string[]): ChildProcessByStdio<Writable, Readable, Readable> {
  return spawn(env().FFMPEG_PATH, ['-hide_banner', '-nostdin', '-y', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}
