/**
 * bwa's public entry point (`import { withBwa } from 'bwa'`): the config helper and the types of what a run leaves.
 * The fixture for your own tests is `bwa/test`, the reporter `bwa/reporter`.
 */
export { withBwa, type BwaOptions } from './project/with-bwa';
export { BWA_PROJECTS } from './project/names';
export type { TaskSpec } from './task/schema';
export type { Result, SampleStatus } from './evidence/result-schema';
