import type { TaskSpec } from './schema';

export interface AuthoredText {
  /** The spec's key it is written under ("goal", "output_schema", "recipe[2]"). */
  where: string;
  text: string;
}

const json = (value: unknown) => JSON.stringify(value);

/**
 * The task author's own words, as prompts quote them: they reach the model as written, never masked (a secret whose
 * value is among them is the author's to fix — `bwa validate` names it). Field names are kept in their quoted JSON
 * form too, so the data a prompt shows keeps its keys.
 */
export function authoredTexts(spec: TaskSpec): AuthoredText[] {
  const texts: AuthoredText[] = [
    { where: 'system_prompt', text: spec.system_prompt.trim() },
    { where: 'goal', text: spec.goal },
    { where: 'stop_condition', text: spec.stop_condition ?? '' },
    { where: 'description', text: spec.description ?? '' },
    { where: 'judgment_question', text: spec.judgment_question ?? '' },
    { where: 'output_schema', text: json(spec.output_schema) },
    { where: 'judgment_output_schema', text: spec.judgment_output_schema ? json(spec.judgment_output_schema) : '' },
    { where: 'required_fields', text: json(spec.required_fields) },
    { where: 'required_artifacts', text: json(spec.required_artifacts) },
    ...spec.keywords.map(text => ({ where: 'keywords', text })),
    ...[...Object.keys(spec.output_schema), ...Object.keys(spec.judgment_output_schema ?? {})].map(field => ({
      where: 'output_schema',
      text: json(field),
    })),
    ...(spec.recipe ?? []).map((step, i) => ({ where: `recipe[${i}]`, text: json(step) })),
  ];
  return texts.filter(t => t.text.trim() !== '');
}

export const authoredTextsOf = (spec: TaskSpec): string[] => authoredTexts(spec).map(t => t.text);
