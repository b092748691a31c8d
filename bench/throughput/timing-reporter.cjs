'use strict';
/**
 * A Playwright reporter for benchmarks: when each test began and how long it took (fixtures included), and when the
 * run began and ended, written to BENCH_TIMING_FILE. Plain JavaScript so it loads the same into bwa's config and a
 * plain one.
 */
const fs = require('node:fs');

class TimingReporter {
  constructor() {
    this.tests = [];
  }

  onBegin() {
    this.begin = Date.now();
  }

  onTestEnd(test, result) {
    this.tests.push({
      project: test.parent.project()?.name ?? '',
      title: test.title,
      start: result.startTime.getTime(),
      duration: result.duration,
      status: result.status,
    });
  }

  onEnd() {
    const file = process.env.BENCH_TIMING_FILE;
    if (file) fs.writeFileSync(file, JSON.stringify({ begin: this.begin, end: Date.now(), tests: this.tests }));
  }

  printsToStdio() {
    return false;
  }
}

module.exports = TimingReporter;
