import { test as setup } from '@playwright/test';
import 'dotenv/config';
import { settings } from '../../agent/settings';
import { logIn, profilesInUse } from './login';

// A trace records typed values: the one place that types passwords keeps none.
setup.use({ trace: 'off', screenshot: 'off' });

const profiles = profilesInUse(settings.tasksDir);

for (const [profile, tasks] of profiles) {
  setup(`sign in: ${profile}`, async ({ browser }) => {
    await logIn(browser, profile, tasks);
  });
}

if (profiles.size === 0) setup('no task needs a sign-in', () => {});
