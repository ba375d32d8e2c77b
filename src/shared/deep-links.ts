/**
 * Operators' deep links: a template per app (web, iOS, Android) with placeholders that a price's
 * own values fill in (docs/data.md#deep-links). Templates are checked when they are imported, and
 * every value is percent-encoded as it goes in, so that no value can change the link's scheme,
 * host or path.
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

/** Why a template is refused, in words; undefined when it is good. */
export function templateProblem(template: string): string | undefined {
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
  return missing ? null : link;
}

/** The three links of a price from its operator's templates. */
export function deepLinksOf(templates: DeepLinkTemplates, values: DeepLinkValues): DeepLinks {
  return {
    bet_web_deep_link_url: deepLinkOf(templates.bet_web_deep_link_template, values),
    bet_ios_deep_link_url: deepLinkOf(templates.bet_ios_deep_link_template, values),
    bet_android_deep_link_url: deepLinkOf(templates.bet_android_deep_link_template, values),
  };
}
