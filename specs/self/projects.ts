/** The self config's Playwright projects: the product's tests (two projects) and the test doubles' own tests. */
export const SELF_PROJECTS = { runs: 'self-runs', inProcess: 'self', testDoubles: 'test-doubles' } as const;

/** Under specs/self: the tests of the scripted model server and the stand-in sites. */
export const TEST_DOUBLES_DIR = 'test-doubles';

/** How the run's last line counts them: product tests apart from the tests of the doubles they run against. */
export const SUMMARY_GROUPS = [
  { title: 'product tests', projects: [SELF_PROJECTS.runs, SELF_PROJECTS.inProcess] },
  { title: 'test-double tests', projects: [SELF_PROJECTS.testDoubles] },
] as const;
