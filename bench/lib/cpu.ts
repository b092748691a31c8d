import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * CPU seconds (user + system) of every child this process has waited for, and of their waited-for descendants:
 * a nested `playwright test` with its workers and their browsers, once it has exited. Read before and after a run.
 */
export function reapedChildrenCpuSeconds(): number {
  // /proc/self/stat: fields after the parenthesised command name; cutime and cstime are the 16th and 17th overall.
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** The 1-minute load average, to print beside numbers measured on a shared machine. */
export function loadAverage(): string {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

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
      rows.set(Number(entry), {
        pid: Number(entry),
        ppid: Number(fields[1]),
        cpuS: cpuTicks / TICKS_PER_SECOND,
        startTicks: Number(fields[19]),
        cmd,
      });
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
  const [, user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}
