import * as fs from 'node:fs';

/**
 * Peak memory of each Playwright worker, sampled from /proc every 250 ms. A worker is a node process
 * (`workerProcessEntry`); its browser is the tree of chromium processes below it — or, with a browser server,
 * the server's tree, measured as one. The node figure is its RSS (VmRSS). For trees, summing RSS would count
 * Chromium's shared pages once per process (about 5× too much), so those figures sum PSS (smaps_rollup: each
 * shared page split among its sharers).
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
  /** The browser server's tree (its node process and its Chromium), as PSS; 0 without one. */
  serverPeakMb = 0;
  /** Every worker tree plus the browser server's, summed at one instant: what the machine holds at once. */
  totalPeakMb = 0;

  constructor(
    private readonly rootPid: number,
    private readonly serverPid?: number,
    private readonly everyMs = 250,
  ) {}

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
    const treeKb = (pid: number) => [pid, ...below(pid)].reduce((sum, p) => sum + pssKb(p), 0);
    this.samples++;
    let totalKb = 0;
    for (const pid of below(this.rootPid)) {
      const proc = procs.get(pid);
      if (!proc?.cmd.includes('workerProcessEntry')) continue;
      const workerKb = treeKb(pid);
      totalKb += workerKb;
      const peak = this.peaks.get(pid) ?? { pid, nodeMb: 0, treeMb: 0 };
      peak.nodeMb = Math.max(peak.nodeMb, proc.rssKb / 1024);
      peak.treeMb = Math.max(peak.treeMb, workerKb / 1024);
      this.peaks.set(pid, peak);
    }
    if (this.serverPid) {
      const serverKb = treeKb(this.serverPid);
      totalKb += serverKb;
      this.serverPeakMb = Math.max(this.serverPeakMb, serverKb / 1024);
    }
    this.totalPeakMb = Math.max(this.totalPeakMb, totalKb / 1024);
  }
}
