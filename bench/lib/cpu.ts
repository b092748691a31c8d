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
