import * as chrono from 'chrono-node';

/**
 * Relative dates ("hace 3 días", "há 2 horas", "3日前", "2小时前", "för 3 dagar sedan") in the languages whose
 * chrono-node parsers do not read them, written as one table per language: each unit's words and the shapes
 * "ago" and "in" take around a number. Each becomes a chrono parser added in front of that language's own, so a
 * relative date is read, counted from the reference and tagged exactly as chrono's English "3 days ago" is.
 * (chrono 2.10 reads these in de, fr, nl, it, ru, uk, fi, vi and id already.)
 */

type Unit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

interface RelativeWords {
  /** The words for each unit, singular, plural and abbreviated. */
  units: Record<Unit, readonly string[]>;
  /** Shapes of a time past: `{n}` the number, `{unit}` a unit word; a space is any spacing. */
  ago: readonly string[];
  /** Shapes of a time to come. */
  ahead: readonly string[];
  /** Words that stand for the number one ("un día", "en timme"). */
  one: readonly string[];
  /** Scripts written without spaces between words (the number runs into the unit). */
  unspaced?: boolean;
}

export const RELATIVE_WORDS_BY_LANGUAGE: Record<string, RelativeWords> = {
  es: {
    units: {
      second: ['segundos', 'segundo', 'seg', 's'],
      minute: ['minutos', 'minuto', 'min'],
      hour: ['horas', 'hora', 'h'],
      day: ['días', 'dias', 'día', 'dia'],
      week: ['semanas', 'semana'],
      month: ['meses', 'mes'],
      year: ['años', 'año', 'anos'],
    },
    ago: ['hace {n} {unit}'],
    ahead: ['dentro de {n} {unit}', 'en {n} {unit}'],
    one: ['un', 'una'],
  },
  pt: {
    units: {
      second: ['segundos', 'segundo', 'seg', 's'],
      minute: ['minutos', 'minuto', 'min'],
      hour: ['horas', 'hora', 'h'],
      day: ['dias', 'dia'],
      week: ['semanas', 'semana'],
      month: ['meses', 'mês', 'mes'],
      year: ['anos', 'ano'],
    },
    ago: ['há {n} {unit} atrás', 'há {n} {unit}', 'ha {n} {unit}', '{n} {unit} atrás'],
    ahead: ['daqui a {n} {unit}', 'dentro de {n} {unit}', 'em {n} {unit}'],
    one: ['um', 'uma'],
  },
  sv: {
    units: {
      second: ['sekunder', 'sekund', 'sek'],
      minute: ['minuter', 'minut', 'min'],
      hour: ['timmar', 'timme', 'tim', 'h'],
      day: ['dagar', 'dag'],
      week: ['veckor', 'vecka'],
      month: ['månader', 'månad', 'mån'],
      year: ['år'],
    },
    ago: ['för {n} {unit} sedan', '{n} {unit} sedan'],
    ahead: ['om {n} {unit}'],
    one: ['en', 'ett'],
  },
  ja: {
    units: {
      second: ['秒'],
      minute: ['分'],
      hour: ['時間'],
      day: ['日'],
      week: ['週間', '週'],
      month: ['ヶ月', 'ヵ月', 'か月', 'カ月', 'ケ月'],
      year: ['年'],
    },
    ago: ['{n} {unit} 前'],
    ahead: ['{n} {unit} 後'],
    one: ['一'],
    unspaced: true,
  },
  zh: {
    units: {
      second: ['秒钟', '秒鐘', '秒'],
      minute: ['分钟', '分鐘'],
      hour: ['个小时', '個小時', '小时', '小時'],
      day: ['天', '日'],
      week: ['个星期', '個星期', '星期', '周', '週'],
      month: ['个月', '個月'],
      year: ['年'],
    },
    ago: ['{n} {unit} 前'],
    ahead: ['{n} {unit} 后', '{n} {unit} 後'],
    one: ['一'],
    unspaced: true,
  },
};

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One chrono parser reading the language's "ago" and "in" shapes. */
export function relativeDateParser(words: RelativeWords): chrono.Parser {
  const unitOf = new Map<string, Unit>();
  for (const [unit, list] of Object.entries(words.units) as Array<[Unit, readonly string[]]>)
    for (const word of list) unitOf.set(word.toLowerCase(), unit);
  // Longest words first, so "horas" is never read as "h".
  const unitWords = [...unitOf.keys()].sort((a, b) => b.length - a.length).map(escape);
  const number = `(\\d+|${words.one.map(escape).join('|')})`;
  const unit = `(${unitWords.join('|')})`;
  const gap = words.unspaced ? '\\s*' : '\\s+';
  const shape = (template: string) =>
    template
      .split(' ')
      .map(part => (part === '{n}' ? number : part === '{unit}' ? unit : escape(part)))
      .join(gap);
  const shapes = [...words.ago.map(t => ({ sign: -1, t })), ...words.ahead.map(t => ({ sign: 1, t }))];
  const edge = words.unspaced ? ['', ''] : ['(?<![\\p{L}\\p{N}])', '(?![\\p{L}\\p{N}])'];
  const pattern = new RegExp(`${edge[0]}(?:${shapes.map(({ t }) => `(${shape(t)})`).join('|')})${edge[1]}`, 'iu');
  return {
    pattern: () => pattern,
    extract: (context, match) => {
      // Each shape is one outer group followed by its number and unit groups.
      for (let shapeIndex = 0, group = 1; shapeIndex < shapes.length; shapeIndex++, group += 3) {
        if (match[group] === undefined) continue;
        const count = /^\d+$/.test(match[group + 1] ?? '') ? Number(match[group + 1]) : 1;
        const found = unitOf.get((match[group + 2] ?? '').toLowerCase());
        if (!found) return null;
        return chrono.ParsingComponents.createRelativeFromReference(context.reference, { [found]: shapes[shapeIndex]!.sign * count });
      }
      return null;
    },
  };
}

/** The language's chrono parser with its relative shapes read too (unchanged when the table has no entry for it). */
export function withRelativeDates(language: string, parser: chrono.Chrono): chrono.Chrono {
  const words = RELATIVE_WORDS_BY_LANGUAGE[language];
  if (!words) return parser;
  const extended = parser.clone();
  extended.parsers.unshift(relativeDateParser(words));
  return extended;
}
