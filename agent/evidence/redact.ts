/**
 * Replaces every known secret value with its placeholder. Everything we write or send passes through
 * one of these, so a secret that reached a page field can never reach a log, a result or a prompt.
 */
export class Redactor {
  private readonly entries: Array<[value: string, placeholder: string]>;

  constructor(secrets: Record<string, string>) {
    this.entries = Object.entries(secrets)
      .filter(([, value]) => value.length >= 3)
      .map(([name, value]): [string, string] => [value, `{{secret:${name}}}`])
      .sort((a, b) => b[0].length - a[0].length);
  }

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  text(input: string): string {
    let out = input;
    for (const [value, placeholder] of this.entries) out = out.split(value).join(placeholder);
    return out;
  }

  json<T>(value: T): T {
    if (this.isEmpty) return value;
    return JSON.parse(this.text(JSON.stringify(value))) as T;
  }
}

export const noRedaction = new Redactor({});
