import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export interface ProcessRow {
  pid: number;
  ppid: number;
  /** user + system of the process itself and of every child it has reaped (a nested run that ended, a renderer). */
  cpuS: number;
  /** When it started, in clock ticks since boot: orders processes started in the same second. */
  startTicks: number;
  cmd: string;
}

/** Every process's row from /proc, read once. */
export function readProcessTable(): Map<number, ProcessRow> {
  const rows = new Map<number, ProcessRow>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command name: ppid is the 2nd, utime…cstime the 12th–15th, starttime the 20th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpuTicks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      rows.set(Number(entry), { pid: Number(entry), ppid: Number(fields[1]), cpuS: cpuTicks / TICKS_PER_SECOND, startTicks: Number(fields[19]), cmd });
    } catch {
      // The process ended between readdir and read.
    }
  }
  return rows;
}

/** CPU seconds of a live process and everything below it (each row already holds its reaped children). */
export function treeCpuSeconds(rows: Map<number, ProcessRow>, root: number): number {
  const children = new Map<number, number[]>();
  for (const row of rows.values()) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row.pid]);
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rows.get(pid)?.cpuS ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Busy CPU seconds of the whole machine since boot (everything but idle and iowait), from /proc/stat. */
export function machineBusySeconds(): number {
  const [, user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}
