import fs from 'node:fs/promises';

/**
 * User + system seconds of this process's finished children (fields 16 and 17 of
 * /proc/self/stat): the ffmpeg runs' CPU, which stays comparable on a busy machine. Null where
 * /proc is missing.
 */
export async function childCpuSeconds(): Promise<number | null> {
  try {
    const stat = await fs.readFile('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name, field 3 is index 0: cutime is field 16, cstime field 17.
    return (Number(fields[13]) + Number(fields[14])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}
