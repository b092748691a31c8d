import { settings } from '../settings';
import { loadSuite } from '../task/suite';

export const validateCommand = {
  name: 'validate',
  summary: 'Check every task spec and its samples CSV, and list what would run',
  usage: 'bwa validate',
  async run(): Promise<number> {
    const suite = loadSuite({ tasksDir: settings.tasksDir, adHocUrl: settings.adHocUrl });
    for (const { task, samples, missing } of suite) {
      const decider = task.spec.recipe?.length ? 'recipe' : 'model only';
      console.log(`${task.spec.task_id.padEnd(24)} ${missing ? 'samples discovered at run time' : `${samples.length} samples`} · ${decider} · ${task.file}`);
    }
    return 0;
  },
};
