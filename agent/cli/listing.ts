/**
 * Every bwa command with its one-line summary, in the order `bwa --help` lists them: all that `bwa --help` loads.
 * Each command's module defines itself with its entry here (`...listed('init')`), so the two never differ.
 */
export const LISTING = [
  {
    name: 'init',
    summary: 'Add bwa to this Playwright project; with a task_id, start a task for your own site (never overwrites)',
  },
  {
    name: 'validate',
    summary: 'Check every task spec, recipe, sign-in profile and samples CSV; list what would run and what cannot',
  },
  {
    name: 'check',
    summary: 'Prove the model setup before a large run: one minimal request, the rules applied, cost per 1,000 samples',
  },
  {
    name: 'auth',
    summary: 'Sign-in profiles: `bwa auth import <profile> <file>` uses a storage state saved by `npx playwright codegen --save-storage`',
  },
  {
    name: 'verify',
    summary: "Re-hash a run's evidence against manifest.json and each result.json (exit 1 on any mismatch)",
  },
  {
    name: 'recipe',
    summary: 'Compile a replayable recipe from an agent run, show it, or export it as a Playwright spec',
  },
  {
    name: 'look',
    summary: 'Print a live page as the model would see it, and the recipe target of each thing it shows (no key needed)',
  },
  {
    name: 'discover',
    summary: "Write a task's samples by browsing its listing (tasks with a discover block)",
  },
  {
    name: 'plan',
    summary: 'Write a task spec and its samples from a plain-English request (needs ANTHROPIC_API_KEY)',
  },
  {
    name: 'browser-server',
    summary: 'Serve Chromium to runners on other machines (they set AGENT_BROWSER_WS to the endpoint it prints)',
  },
] as const;

export type CommandName = (typeof LISTING)[number]['name'];

/** A command's name and summary, for its module to define it with. */
export function listed(name: CommandName): { name: string; summary: string } {
  const { summary } = LISTING.find(command => command.name === name)!;
  return { name, summary };
}
