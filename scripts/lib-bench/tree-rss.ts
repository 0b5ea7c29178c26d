import fs from 'node:fs';

/**
 * Samples the resident memory of a process and all its descendants (the ffmpeg children
 * included) every `everyMs`, from /proc, until stop(), which returns the largest sum seen.
 * Linux only; elsewhere it reports 0.
 */
export function peakTreeRss(root: number, everyMs = 200): { stop: () => number } {
  let peak = 0;
  const sample = () => {
    const sum = treeOf(root).reduce((s, pid) => s + rssBytes(pid), 0);
    if (sum > peak) peak = sum;
  };
  const timer = setInterval(sample, everyMs);
  sample();
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

function treeOf(root: number): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    const ppid = parentOf(Number(e));
    if (ppid === null) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
  }
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...(children.get(all[i]!) ?? []));
  return all;
}

function parentOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (which may hold spaces), the state, then the parent's pid.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
