import type { Result } from '../evidence/result-schema';

/**
 * Tasks whose samples in this run ran under more than one version of the task (its spec, its own recipe): one
 * line each, naming the versions and their samples, so a combined.csv never mixes two versions without a word.
 */
export function mixedVersions(results: readonly Result[]): string[] {
  const byTask = new Map<string, Result[]>();
  for (const result of results) byTask.set(result.task_id, [...(byTask.get(result.task_id) ?? []), result]);
  return [...byTask].flatMap(([taskId, samples]) => {
    // Results written before recipes were hashed say nothing about theirs: then the spec alone tells versions apart.
    const withRecipe = samples.every(r => r.recipe_hash !== undefined);
    const versions = new Map<string, string[]>();
    for (const r of samples) {
      const version = `spec ${r.task_hash.slice(0, 8)}${withRecipe ? `, recipe ${r.recipe_hash?.slice(0, 8) ?? 'none'}` : ''}`;
      versions.set(version, [...(versions.get(version) ?? []), r.sample_id]);
    }
    if (versions.size < 2) return [];
    const listed = [...versions].map(
      ([version, ids]) => `${version}: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`,
    );
    return [
      `${taskId}/combined.csv mixes ${versions.size} versions of the task (${listed.join('; ')}) — resume without AGENT_RESUME_CHANGED=keep to run the older ones again`,
    ];
  });
}
