import type { AriaJsonNode } from '../../../agent/snapshot/raw';
import type { PageMetrics } from '../../../agent/snapshot';

/** Hand-built AI-snapshot JSON: the shapes page.ariaSnapshotJSON({ mode: 'ai', boxes: true }) returns. */
export function el(role: string, props: Partial<AriaJsonNode> = {}, children?: Array<string | AriaJsonNode>): AriaJsonNode {
  return children ? { role, ...props, children } : { role, ...props };
}

export function box(y: number, height = 20, x = 10, width = 200): AriaJsonNode['box'] {
  return { x, y, width, height };
}

export function metrics(overrides: Partial<PageMetrics> = {}): PageMetrics {
  return {
    title: 'Test page',
    viewportWidth: 1280,
    viewportHeight: 900,
    direction: 'ltr',
    scrollX: 0,
    scrollY: 0,
    scrollHeight: 2000,
    totalElements: 100,
    canvasShare: 0,
    unnamedImageShare: 0,
    svgOnlyIcons: 0,
    controls: [],
    clickables: [],
    sublists: [],
    toggles: [],
    ranges: [],
    scrollers: [],
    ...overrides,
  };
}

/** The indexed lines only (header stripped). */
export function bodyLines(text: string): string[] {
  return text.split('\n').slice(3);
}

let nextRef = 1000;
export function ref(): string {
  return `e${nextRef++}`;
}
