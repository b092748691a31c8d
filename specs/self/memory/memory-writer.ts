import * as fs from 'node:fs';
import * as path from 'node:path';
import { RunMemory } from '../../../agent/memory/run-memory';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One "worker process" of the concurrency test: appends `count` patterns and `count` warnings to the run memory,
 * one locked read-modify-write each. It starts once all `writers` siblings are ready (a file each in `readyDir`),
 * so their appends overlap.
 * Usage: node --require tsx/cjs memory-writer.ts <memory dir> <worker id> <count> <ready dir> <writers>
 */
async function main(): Promise<void> {
  const [dir, worker, countText, readyDir, writersText] = process.argv.slice(2);
  if (!dir || !worker || !countText || !readyDir || !writersText)
    throw new Error('usage: memory-writer.ts <dir> <worker> <count> <readyDir> <writers>');
  const memory = new RunMemory(dir);
  fs.writeFileSync(path.join(readyDir, worker), '');
  while (fs.readdirSync(readyDir).length < Number(writersText)) await sleep(5);
  const at = new Date().toISOString();
  for (let i = 0; i < Number(countText); i++) {
    await memory.addPatterns([{ task_id: 't', host: 'h', tip: `worker ${worker} tip ${i}`, keywords: ['tip'], from_sample: `w${worker}`, at }]);
    await memory.addWarnings([
      { task_id: 't', host: 'h', warning: `worker ${worker} warning ${i}`, keywords: ['warning'], from_sample: `w${worker}`, at },
    ]);
  }
}

main().catch(error => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
