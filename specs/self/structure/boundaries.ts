/**
 * Which parts of agent/ may import which (as Playwright's DEPS.list files do): a folder, or a file at the top of
 * agent/ (settings, session, fixture, cli), names what it may import besides itself. The layers: fs and secrets,
 * then env and evidence at the bottom; task and the page state over them; actions, then the browser and the deciders; the loop
 * on all of those; recipes, memory, the session, discovery, planning and setup over the loop; reports, bwa look, the CLI and
 * the fixture on top. Checked by import-boundaries.spec.ts; docs/internals.md shows the same map, with what each
 * part holds.
 */
export interface Boundary {
  may: readonly string[];
  /** Single files of another part this one may import, each with the reason it is not a layering mistake. */
  files?: Readonly<Record<string, string>>;
}

export const BOUNDARIES: Readonly<Record<string, Boundary>> = {
  fs: { may: [] },
  secrets: {
    may: [],
    files: {
      'browser/domains.ts':
        "a secret is typed only on its sites, written as allowed_domains are: one matcher for both (a module that imports nothing of bwa's)",
    },
  },
  env: {
    may: ['fs', 'secrets'],
    files: {
      'decide/model-capabilities.ts':
        "the model defaults and effort levels: AGENT_MODEL, AGENT_FAST_MODEL and AGENT_EFFORT take them from the capability table, the one place of per-model facts (a data module that imports nothing of bwa's)",
      'snapshot/tokens.ts':
        "the prompt budget's rule: AGENT_CONTEXT_WINDOW's description is written from its constants (a module that imports nothing of bwa's)",
    },
  },
  evidence: { may: ['fs', 'secrets'] },
  snapshot: { may: [] },
  settings: { may: ['env', 'snapshot'] },
  task: {
    may: ['env', 'evidence', 'fs', 'secrets', 'settings'],
    files: { 'actions/names.ts': "a recipe step names an action: the task schema takes the action names from the actions' one list of them" },
  },
  actions: { may: ['evidence', 'fs', 'secrets', 'snapshot', 'task'] },
  browser: {
    may: ['actions', 'env', 'evidence', 'fs', 'secrets', 'settings', 'task'],
  },
  decide: { may: ['actions', 'env', 'evidence', 'secrets', 'snapshot', 'task'] },
  loop: { may: ['actions', 'browser', 'decide', 'evidence', 'secrets', 'snapshot', 'task'] },
  recipe: { may: ['actions', 'browser', 'decide', 'evidence', 'fs', 'loop', 'secrets', 'settings', 'task'] },
  memory: { may: ['actions', 'decide', 'env', 'evidence', 'fs', 'recipe', 'secrets', 'task'] },
  judge: { may: ['decide', 'evidence', 'fs', 'loop', 'secrets', 'settings', 'task'] },
  session: {
    may: ['actions', 'browser', 'decide', 'env', 'evidence', 'fs', 'loop', 'memory', 'recipe', 'secrets', 'settings', 'task'],
    files: {
      'snapshot/click-listeners.ts':
        "the page's click listeners that observe() reads are marked by an init script, which must be on the sample's context before its first page loads",
      'snapshot/closed-shadow-roots.ts':
        "the closed shadow roots whose text observe() lists when the tree is empty are kept by an init script, which must be on the sample's context before its first page loads",
    },
  },
  discover: {
    may: ['actions', 'browser', 'decide', 'env', 'evidence', 'fs', 'session', 'settings', 'task'],
  },
  plan: {
    may: ['actions', 'decide', 'discover', 'evidence', 'fs', 'task'],
    files: { 'project/names.ts': "the run command a plan prints names bwa's Playwright project (a list that imports nothing of bwa's)" },
  },
  setup: {
    may: ['actions', 'browser', 'decide', 'discover', 'env', 'evidence', 'fs', 'loop', 'recipe', 'secrets', 'settings', 'task'],
    files: {
      'project/names.ts':
        "the Playwright projects bwa adds and the files they load: globalSetup finds the generated tests' project by them (a list that imports nothing of bwa's)",
    },
  },
  report: {
    may: ['env', 'evidence', 'fs', 'loop', 'recipe', 'secrets', 'settings', 'setup', 'task'],
    files: { 'project/names.ts': "the reporter tells bwa's own project's tests from the user's by its name (a list that imports nothing of bwa's)" },
  },
  look: { may: ['actions', 'browser', 'env', 'loop', 'recipe', 'session', 'settings', 'snapshot', 'task'] },
  cli: {
    may: [
      'browser',
      'decide',
      'discover',
      'env',
      'evidence',
      'fs',
      'look',
      'plan',
      'recipe',
      'report',
      'secrets',
      'session',
      'settings',
      'setup',
      'task',
    ],
    files: { 'project/names.ts': "the run commands it prints name bwa's Playwright project (a list that imports nothing of bwa's)" },
  },
  fixture: {
    may: ['actions', 'browser', 'decide', 'env', 'evidence', 'fs', 'loop', 'recipe', 'report', 'secrets', 'session', 'settings', 'setup', 'task'],
  },
  project: {
    may: ['browser', 'decide', 'env', 'evidence', 'fixture', 'judge', 'loop', 'recipe', 'report', 'secrets', 'settings', 'setup', 'task'],
  },
  index: { may: ['evidence', 'project', 'task'] },
  test: { may: ['decide', 'env', 'evidence', 'fixture', 'project', 'settings', 'task'] },
};
