import { z } from 'zod';
import type { Box } from './types';

/**
 * Everything observe() needs from the live DOM besides the AI snapshot, gathered in ONE evaluate:
 * confidence inputs the accessibility tree cannot see (canvas area, unlabeled SVG icons), scroll and
 * viewport, the title, and the boxes of required and password fields (the snapshot reports neither;
 * boxes are rounded exactly like Playwright rounds snapshot boxes, so they match node for node).
 * Only the top-level document and its open shadow roots are inspected: child frames are not.
 */

const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export const pageMetricsSchema = z.object({
  title: z.string(),
  viewportWidth: z.number(),
  viewportHeight: z.number(),
  scrollX: z.number(),
  scrollY: z.number(),
  scrollHeight: z.number(),
  totalElements: z.number(),
  canvasShare: z.number(),
  svgOnlyIcons: z.number(),
  requiredBoxes: z.array(boxSchema),
  passwordBoxes: z.array(boxSchema),
});
export type PageMetrics = z.infer<typeof pageMetricsSchema>;

/**
 * Runs in the page. No named inner functions: script runners that keep function names (tsx/esbuild)
 * would wrap them in a helper that does not exist in the browser.
 */
export function collectPageMetrics(): PageMetrics {
  const viewportWidth = window.innerWidth;
  const viewportHeight = window.innerHeight;
  const roots: Array<Document | ShadowRoot> = [document];
  const requiredBoxes: Box[] = [];
  const passwordBoxes: Box[] = [];
  let totalElements = 0;
  let canvasArea = 0;
  let svgOnlyIcons = 0;
  const labeledHostSelector = 'a,button,summary,label,[role=button],[role=link],[role=tab],[role=menuitem],[role=checkbox],[role=switch],[role=option]';
  for (let r = 0; r < roots.length; r++) {
    const root = roots[r] as Document | ShadowRoot;
    const all = root.querySelectorAll('*');
    totalElements += all.length;
    for (let i = 0; i < all.length; i++) {
      const shadow = (all[i] as Element).shadowRoot;
      if (shadow) roots.push(shadow);
    }
    root.querySelectorAll('canvas').forEach((canvas) => {
      const rect = canvas.getBoundingClientRect();
      const width = Math.min(rect.right, viewportWidth) - Math.max(rect.left, 0);
      const height = Math.min(rect.bottom, viewportHeight) - Math.max(rect.top, 0);
      if (width > 0 && height > 0) canvasArea += width * height;
    });
    root.querySelectorAll('svg').forEach((svg) => {
      if (svg.ownerSVGElement) return;
      const rect = svg.getBoundingClientRect();
      if (rect.width <= 0 || rect.height <= 0) return;
      const ownLabel = svg.getAttribute('aria-label') || svg.getAttribute('aria-labelledby')
        || svg.querySelector(':scope > title')?.textContent?.trim();
      if (ownLabel) return;
      const host = svg.parentElement?.closest(labeledHostSelector);
      if (host && (host.getAttribute('aria-label') || host.textContent?.trim())) return;
      svgOnlyIcons++;
    });
    root.querySelectorAll('input,select,textarea,[aria-required="true"]').forEach((element) => {
      const isRequired = (element as HTMLInputElement).required || element.getAttribute('aria-required') === 'true';
      const isPassword = element.localName === 'input' && (element as HTMLInputElement).type === 'password';
      if (!isRequired && !isPassword) return;
      const rect = element.getBoundingClientRect();
      const box = { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) };
      if (isRequired) requiredBoxes.push(box);
      if (isPassword) passwordBoxes.push(box);
    });
  }
  const scrolling = document.scrollingElement ?? document.documentElement;
  return {
    title: document.title,
    viewportWidth,
    viewportHeight,
    scrollX: window.scrollX,
    scrollY: window.scrollY,
    scrollHeight: scrolling ? scrolling.scrollHeight : viewportHeight,
    totalElements,
    canvasShare: Math.min(1, canvasArea / Math.max(1, viewportWidth * viewportHeight)),
    svgOnlyIcons,
    requiredBoxes,
    passwordBoxes,
  };
}
