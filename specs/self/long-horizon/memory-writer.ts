import { RunMemory } from '../../../agent/memory/run-memory';

/**
 * One "worker process" of the concurrency test: appends `count` patterns and `count` warnings to the run memory,
 * one locked read-modify-write each, starting at the same wall-clock moment as its siblings.
 * Usage: node --require tsx/cjs memory-writer.ts <memory dir> <worker id> <count> <start at epoch ms>
 */
async function main(): Promise<void> {
  const [dir, worker, countText, startText] = process.argv.slice(2);
  if (!dir || !worker || !countText || !startText) throw new Error('usage: memory-writer.ts <dir> <worker> <count> <startAtMs>');
  const memory = new RunMemory(dir);
  await new Promise(resolve => setTimeout(resolve, Math.max(0, Number(startText) - Date.now())));
  const at = new Date().toISOString();
  for (let i = 0; i < Number(countText); i++) {
    await memory.addPatterns([{ task_id: 't', host: 'h', tip: `worker ${worker} tip ${i}`, keywords: ['tip'], from_sample: `w${worker}`, at }]);
    await memory.addWarnings([{ task_id: 't', host: 'h', warning: `worker ${worker} warning ${i}`, keywords: ['warning'], from_sample: `w${worker}`, at }]);
  }
}

main().catch(error => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
