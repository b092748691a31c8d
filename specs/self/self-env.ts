import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The project's own tests write their reports (and the runs their fixtures make) into a temporary folder, never
// into the user's reports/. Set in the main process before the shared config reads it; workers inherit it.
process.env.AGENT_REPORTS_DIR ||= fs.mkdtempSync(path.join(os.tmpdir(), 'bwa-self-reports-'));
// Each test sets the variables it needs: a developer's own .env (a key, secrets) never changes what a test sees.
process.env.AGENT_ENV_FILE = 'none';
