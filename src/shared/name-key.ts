/**
 * The form a source's name is compared in (docs/operations.md#loading-real-data): `Brighton & Hove
 * Albion FC` and `brighton and hove albion` are one name. Lower case, diacritics dropped
 * (`Atlético` → `atletico`), `&` read as `and`, punctuation as a blank, the club words `FC` and `AFC`
 * left out wherever they stand, blanks collapsed. Nothing else is guessed (`Man United` is not
 * `Manchester United`): such names are bound by an alias.
 */
export function nameKey(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== 'fc' && word !== 'afc');
  return words.join(' ');
}

/** A key made of a name (`Brighton & Hove Albion` → `brighton-and-hove-albion`): a record a source creates is keyed so. */
export function keyOfName(name: string): string {
  return nameKey(name).replace(/ /g, '-') || 'unnamed';
}

/**
 * How alike two names are, 0 to 1, by their normalised forms: the Dice coefficient of their letter
 * pairs. Only to rank the candidates the review queue offers; nothing is matched by it.
 */
export function similarity(a: string, b: string): number {
  const pairs = (text: string) => {
    const key = nameKey(text).replace(/ /g, '');
    const list: string[] = [];
    for (let i = 0; i < key.length - 1; i++) list.push(key.slice(i, i + 2));
    return list;
  };
  const left = pairs(a);
  const right = pairs(b);
  if (left.length === 0 || right.length === 0) return nameKey(a) === nameKey(b) ? 1 : 0;
  const counts = new Map<string, number>();
  for (const pair of left) counts.set(pair, (counts.get(pair) ?? 0) + 1);
  let shared = 0;
  for (const pair of right) {
    const count = counts.get(pair) ?? 0;
    if (count > 0) {
      shared += 1;
      counts.set(pair, count - 1);
    }
  }
  return Math.round(((2 * shared) / (left.length + right.length)) * 1000) / 1000;
}
