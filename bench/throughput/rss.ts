import * as fs from 'node:fs';

/**
 * Peak memory of each Playwright worker, sampled from /proc every 250 ms. A worker is a node process
 * (`workerProcessEntry`); its browser is the tree of chromium processes below it. The node figure is its
 * RSS (VmRSS). For worker + browser, summing RSS would count Chromium's shared pages once per process
 * (about 5× too much), so that figure sums PSS (smaps_rollup: each shared page split among its sharers).
 */

interface ProcInfo {
  pid: number;
  ppid: number;
  rssKb: number;
  cmd: string;
}

function pssKb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function readProcs(): Map<number, ProcInfo> {
  const procs = new Map<number, ProcInfo>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      procs.set(Number(entry), { pid: Number(entry), ppid, rssKb, cmd });
    } catch {
      // The process ended between readdir and read.
    }
  }
  return procs;
}

export interface WorkerPeak {
  pid: number;
  /** The worker's own node process. */
  nodeMb: number;
  /** The worker plus everything below it (its Chromium), as PSS. */
  treeMb: number;
}

export class TreeSampler {
  private readonly peaks = new Map<number, WorkerPeak>();
  private timer: NodeJS.Timeout | undefined;
  samples = 0;

  constructor(private readonly rootPid: number, private readonly everyMs = 250) {}

  start(): void {
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  stop(): WorkerPeak[] {
    clearInterval(this.timer);
    return [...this.peaks.values()];
  }

  private sample(): void {
    const procs = readProcs();
    const children = new Map<number, number[]>();
    for (const p of procs.values()) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
    const below = (pid: number): number[] => (children.get(pid) ?? []).flatMap(child => [child, ...below(child)]);
    this.samples++;
    for (const pid of below(this.rootPid)) {
      const proc = procs.get(pid);
      if (!proc?.cmd.includes('workerProcessEntry')) continue;
      const treeKb = [pid, ...below(pid)].reduce((sum, p) => sum + pssKb(p), 0);
      const peak = this.peaks.get(pid) ?? { pid, nodeMb: 0, treeMb: 0 };
      peak.nodeMb = Math.max(peak.nodeMb, proc.rssKb / 1024);
      peak.treeMb = Math.max(peak.treeMb, treeKb / 1024);
      this.peaks.set(pid, peak);
    }
  }
}
