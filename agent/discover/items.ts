import { checkSampleId } from '../task/samples';
import type { RecordSource, TaskSpec } from '../task/schema';
import { withoutFragment } from '../browser/page-url';

/** An item link as read from the page. */
export interface FoundLink {
  url: string;
  text: string;
  /** Attributes record_from asks for. */
  attributes: Record<string, string>;
}

export interface Where {
  pageUrl: string;
  pageNumber: number;
}

export interface DiscoveredItem {
  sample_id: string;
  url: string;
  /** One value per input column of the task. */
  values: Record<string, string>;
  discovered_from: string;
  discovered_page: number;
  discovered_at: string;
}

/**
 * The discovered items in the order they were first seen: de-duplicated by URL, each given a unique,
 * folder-safe sample_id, capped at max_items.
 */
export class ItemCollector {
  /** By address without its fragment: a fragment never names a different item; everything else (path, query) may. */
  private readonly byUrl = new Map<string, DiscoveredItem>();
  /** Sample ids given so far, lower-cased. */
  private readonly ids = new Set<string>();
  private readonly idPattern: RegExp | undefined;

  constructor(
    private readonly spec: TaskSpec,
    readonly maxItems: number,
  ) {
    this.idPattern = spec.discover?.id_pattern ? new RegExp(spec.discover.id_pattern) : undefined;
  }

  get items(): DiscoveredItem[] {
    return [...this.byUrl.values()];
  }

  get size(): number {
    return this.byUrl.size;
  }

  get full(): boolean {
    return this.byUrl.size >= this.maxItems;
  }

  has(url: string): boolean {
    return this.byUrl.has(withoutFragment(url));
  }

  /** Attributes the links must be read with (record_from "attribute" sources). */
  static attributesFor(spec: TaskSpec): string[] {
    return [...new Set(Object.values(spec.discover?.record_from ?? {}).flatMap(s => (s.from === 'attribute' && s.attribute ? [s.attribute] : [])))];
  }

  /** Adds a link not seen before; undefined for a duplicate or once the cap is reached. */
  add(link: FoundLink, where: Where, reported: Record<string, unknown> = {}): DiscoveredItem | undefined {
    const url = withoutFragment(link.url);
    if (this.byUrl.has(url) || this.full) return undefined;
    const values = this.valuesOf({ ...link, url }, reported);
    const item: DiscoveredItem = {
      sample_id: this.uniqueId(this.idSource(url, values)),
      url,
      values,
      discovered_from: where.pageUrl,
      discovered_page: where.pageNumber,
      discovered_at: new Date().toISOString(),
    };
    this.byUrl.set(url, item);
    this.ids.add(item.sample_id.toLowerCase());
    return item;
  }

  /** Values read from the page win over values the model reported (an auditor can trust the CSV). */
  private valuesOf(link: FoundLink, reported: Record<string, unknown>): Record<string, string> {
    const block = this.spec.discover;
    const values: Record<string, string> = {};
    for (const column of Object.keys(this.spec.input_schema)) {
      const source = block?.record_from[column];
      const read = source ? readSource(source, link) : column === 'url' ? link.url : '';
      values[column] = read || scalar(reported[column]);
    }
    return values;
  }

  private idSource(url: string, values: Record<string, string>): string {
    const from = this.spec.discover?.id_from ?? 'url';
    const raw = from === 'url' ? url : (values[from] ?? '');
    if (this.idPattern) {
      const match = this.idPattern.exec(raw);
      if (match) return safeDecode(match[1] ?? match[0]);
    }
    return from === 'url' ? lastPathSegment(url) : raw;
  }

  private uniqueId(candidate: string): string {
    const base = toSampleId(candidate) || `item-${this.byUrl.size + 1}`;
    let id = base;
    // Ids are unique regardless of case: "Ada" and "ada" would share a folder on a case-insensitive file system.
    for (let n = 2; this.ids.has(id.toLowerCase()); n++) id = `${base.slice(0, 95)}-${n}`;
    return id;
  }
}

export function readSource(source: RecordSource, link: FoundLink): string {
  const raw = source.from === 'url' ? link.url : source.from === 'text' ? link.text : (link.attributes[source.attribute ?? ''] ?? '');
  if (!source.pattern) return raw.trim();
  const match = new RegExp(source.pattern).exec(raw);
  return match ? safeDecode(match[1] ?? match[0]).trim() : '';
}

function lastPathSegment(url: string): string {
  try {
    const parsed = new URL(url);
    const segments = parsed.pathname.split('/').filter(Boolean).map(safeDecode);
    const query = parsed.search.slice(1);
    return [segments[segments.length - 1] ?? parsed.host, query].filter(Boolean).join('_');
  } catch {
    return url;
  }
}

function toSampleId(value: string): string {
  const id = value
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 100);
  return checkSampleId(id) ? '' : id;
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
