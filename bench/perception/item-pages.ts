import { MAIL_ROWS } from '../../fixtures/sites/widgets/cases/mail-rows';
import { FEED_POSTS } from '../../fixtures/sites/widgets/cases/post-feed';
import { KNOBS } from '../../fixtures/sites/widgets/cases/knob-sliders';
import { REORDERED_TOOLBARS } from '../../fixtures/sites/widgets/cases/reversed-icons';
import type { BenchPage } from './pages';

/** A regular expression matching the text literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Any ref: `c4`, `e12`, or `f1e12` once the page has loaded a second document. */
const REF = '\\[(?:c|(?:f\\d+)?e)\\d+\\]';
const title = (name: string) => `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`;

/**
 * The widget lab's pages of item controls (issue 36): each fact is one control with a ref where it belongs — a mail
 * row's star and bin on the row's first line, right above its sender; each post's four icons on the post's own line;
 * Next in the calendar's header line; each knob named by its own slider; each toolbar in its on-screen order.
 */
export function itemControlPages(base: string): BenchPage[] {
  return [
    {
      name: 'widgets/mail-rows',
      url: `${base}/mail-rows`,
      keywords: [],
      mustSee: MAIL_ROWS.flatMap(row =>
        ['star', 'bin'].map(
          icon =>
            new RegExp(
              `${REF} clickable\\n [^\\n]*\\[c\\d+\\] clickable icon="row ${icon}"${icon === 'star' && row.starred ? ' state="starred"' : ''} near="${literal(row.from)}"[^\\n]*\\n [^\\n]*"${literal(row.from)}"`,
            ),
        ),
      ),
    },
    {
      name: 'widgets/post-feed',
      url: `${base}/post-feed`,
      keywords: [],
      mustSee: FEED_POSTS.flatMap(post =>
        ['comment', 'boost', 'heart', 'more'].map(
          icon => new RegExp(`"${literal(post.name)} @[^\\n]*${REF} clickable icon="pb ${icon}" near="${literal(post.name)} @`),
        ),
      ),
    },
    {
      name: 'widgets/month-stepper',
      url: `${base}/month-stepper`,
      keywords: [],
      mustSee: [new RegExp(`clickable "Previous" ${REF} clickable "Next" "March 2021"`)],
    },
    {
      name: 'widgets/knob-sliders',
      url: `${base}/knob-sliders`,
      keywords: [],
      mustSee: KNOBS.map(knob => new RegExp(`${REF} clickable icon="knob" near="${knob.label}[":]`)),
    },
    {
      name: 'widgets/reversed-icons',
      url: `${base}/reversed-icons`,
      keywords: [],
      mustSee: REORDERED_TOOLBARS.map(bar => new RegExp(bar.shown.map(name => `\\] clickable "${title(name)}"`).join('\\n[^\\n]*'))),
    },
  ];
}
