/**
 * Operators' deep links: a template per app (web, iOS, Android) with placeholders that a price's
 * own values fill in (docs/data.md#deep-links). Templates are checked when they are imported, and
 * every value is percent-encoded as it goes in, so that no value can change the link's scheme,
 * host or path (a value that would be a dot segment of the path gives no link).
 */

/** What a template may name, in braces: `{operator_selection_id}`. */
export const DEEP_LINK_PLACEHOLDERS = [
  'operator_selection_id',
  'event_id',
  'betting_market_id',
  'event_betting_market_position_id',
  'position',
  'line',
] as const;
export type DeepLinkPlaceholder = (typeof DEEP_LINK_PLACEHOLDERS)[number];

/** The apps a link opens, with the template's field on operators and the link's field on items. */
export const DEEP_LINK_APPS = [
  { template: 'bet_web_deep_link_template', link: 'bet_web_deep_link_url' },
  { template: 'bet_ios_deep_link_template', link: 'bet_ios_deep_link_url' },
  { template: 'bet_android_deep_link_template', link: 'bet_android_deep_link_url' },
] as const;

export type DeepLinkTemplates = Record<(typeof DEEP_LINK_APPS)[number]['template'], string | null>;
export type DeepLinks = Record<(typeof DEEP_LINK_APPS)[number]['link'], string | null>;
export type DeepLinkValues = Record<DeepLinkPlaceholder, string | number | null>;

const PLACEHOLDER = /\{([^{}]*)\}/g;
const KNOWN: ReadonlySet<string> = new Set(DEEP_LINK_PLACEHOLDERS);

/** A dot segment as a URL parser reads one: `.` or `..`, either dot also as `%2e`. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The path of an absolute URL as written (before any parser resolves it), '' when it has none. */
function writtenPath(link: string): string {
  const afterScheme = link.slice(link.indexOf('//') + 2);
  const start = afterScheme.search(/[/?#]/);
  if (start < 0 || afterScheme[start] !== '/') return '';
  const path = afterScheme.slice(start);
  const end = path.search(/[?#]/);
  return end < 0 ? path : path.slice(0, end);
}

const hasDotSegment = (link: string) => writtenPath(link).split('/').some((segment) => DOT_SEGMENT.test(segment));

/** Why a template is refused, in words; undefined when it is good. */
export function templateProblem(template: string): string | undefined {
  // What a URL parser drops or reads as something else, and other parsers do not: the link one
  // app opens must be the link another checks.
  if (/[\u0000-\u001f\u007f]/.test(template)) return 'has a control character (a line break, a tab): a URL parser drops it';
  if (/\s/u.test(template)) return 'has a space: write it percent-encoded (%20)';
  if (template.includes('\\')) return 'has a backslash: a browser reads it as a slash, other parsers do not';
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (name === undefined || !KNOWN.has(name)) return `names an unknown placeholder {${name ?? ''}}: known are ${DEEP_LINK_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`;
  }
  const filled = template.replace(PLACEHOLDER, 'x');
  if (filled.includes('{') || filled.includes('}')) return 'has a brace outside a placeholder';
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return 'is not an absolute URL';
  }
  // A universal link or app link is https too; other schemes (javascript:, custom ones) are refused.
  if (url.protocol !== 'https:') return `must be an https URL, not ${url.protocol}`;
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  // The host is fixed by the operator: a placeholder there would let a value choose where the link goes.
  const host = template.slice(template.indexOf('//') + 2).split(/[/?#]/)[0] ?? '';
  if (host.includes('{')) return 'must not have a placeholder in its host';
  if (hasDotSegment(filled)) return 'has a dot segment (. or ..) in its path: write the path it stands for';
  return undefined;
}

/** A link from a template: null without a template, or when a placeholder it names has no value. */
export function deepLinkOf(template: string | null, values: DeepLinkValues): string | null {
  if (template === null) return null;
  let missing = false;
  const link = template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = KNOWN.has(name) ? values[name as DeepLinkPlaceholder] : null;
    if (value === null) {
      missing = true;
      return '';
    }
    return encodeURIComponent(String(value));
  });
  // A value that is `.` or `..` as a whole path segment would climb the template's path, and no
  // encoding escapes that (a URL parser reads `%2e` as a dot too): no link, as for a missing value.
  return missing || hasDotSegment(link) ? null : link;
}

/** The three links of a price from its operator's templates. */
export function deepLinksOf(templates: DeepLinkTemplates, values: DeepLinkValues): DeepLinks {
  return {
    bet_web_deep_link_url: deepLinkOf(templates.bet_web_deep_link_template, values),
    bet_ios_deep_link_url: deepLinkOf(templates.bet_ios_deep_link_template, values),
    bet_android_deep_link_url: deepLinkOf(templates.bet_android_deep_link_template, values),
  };
}
