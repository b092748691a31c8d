import { test as setup } from '@playwright/test';
import 'dotenv/config';
import { parseTestArgs, selectDiscoveryTasks } from '../../agent/plan/run-selection';
import { settings } from '../../agent/settings';
import { logIn, profilesInUse } from './login';

// A trace records typed values: the one place that types passwords keeps none.
setup.use({ trace: 'off', screenshot: 'off' });

/**
 * Only the tasks this invocation selects need their sign-in: `--grep @people_profile` must not require the
 * credentials of another task. The main process's command line reaches workers through AGENT_CLI_ARGS.
 */
function selectedProfiles(): Map<string, string[]> {
  const all = profilesInUse(settings.tasksDir);
  const argv = process.env.AGENT_CLI_ARGS ? (JSON.parse(process.env.AGENT_CLI_ARGS) as string[]) : undefined;
  if (!argv) return all;
  const projects = setup.info().config.projects.map(p => ({ name: p.name, testDir: p.testDir, testMatch: p.testMatch }));
  const taskIds = [...all.values()].flat();
  const selected = new Set(selectDiscoveryTasks(taskIds, parseTestArgs(argv), projects));
  const chosen = new Map<string, string[]>();
  for (const [profile, tasks] of all) {
    const used = tasks.filter(task => selected.has(task));
    if (used.length) chosen.set(profile, used);
  }
  return chosen;
}

setup('sign in for the selected tasks', async ({ browser }) => {
  const profiles = selectedProfiles();
  for (const [profile, tasks] of profiles) await logIn(browser, profile, tasks);
  if (profiles.size === 0) setup.info().annotations.push({ type: 'auth', description: 'no selected task needs a sign-in' });
});
