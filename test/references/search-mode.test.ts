import { describe, expect, it } from 'vitest';
import { referenceDataset } from '../fixtures/references.js';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';

type Mode = 'contains' | 'starts_with' | 'exact';
const holds: Record<Mode, (value: string, text: string) => boolean> = {
  contains: (value, text) => value.includes(text),
  starts_with: (value, text) => value.startsWith(text),
  exact: (value, text) => value === text,
};

/** Odditt's search_mode on leagues, teams and players, and sport_key on betting markets. */
describe.each(DIALECTS)('search_mode and sport_key on the references (%s)', (dialect) => {
  const data = referenceDataset();
  const h = forSuite(() => reader({ dialect, dataset: { ...data } }));

  const expected = (rows: ReadonlyArray<{ id: number; key: string; name: string }>, text: string, mode: Mode) =>
    rows
      .filter((r) => holds[mode](r.name.toLowerCase(), text) || holds[mode](r.key.toLowerCase(), text))
      .map((r) => r.id)
      .sort((a, b) => a - b);

  it('contains (the default), starts_with and exact compare search with the name or the key', async () => {
    const lists = [
      ['leagues', data.leagues],
      ['teams', data.teams],
      ['players', data.players],
    ] as const;
    for (const [list, rows] of lists) {
      const first = rows[0];
      if (!first) throw new Error(`fixture: no ${list}`);
      for (const text of [first.name.toLowerCase().slice(0, 2), first.key.slice(1, 4), first.name.toLowerCase()]) {
        const plain = await h.allIds(`/v1/references/${list}?search=${encodeURIComponent(text)}`);
        expect(plain).toEqual(expected(rows, text, 'contains'));
        for (const mode of ['contains', 'starts_with', 'exact'] as const) {
          expect(await h.allIds(`/v1/references/${list}?search=${encodeURIComponent(text)}&search_mode=${mode}`), `${list} ${mode} ${text}`).toEqual(
            expected(rows, text, mode),
          );
        }
      }
      expect(await h.allIds(`/v1/references/${list}?search=${encodeURIComponent(first.name.toUpperCase())}&search_mode=exact`)).toContain(first.id);
      expectError(await h.get(`/v1/references/${list}?search=a&search_mode=fuzzy`), 422, 'VALIDATION_ERROR', 'search_mode');
    }
  });

  it('betting-markets take sport_key as sport_id; an unknown key is 404', async () => {
    const sport = data.sports[0];
    if (!sport) throw new Error('fixture: no sport');
    expect(await h.allIds(`/v1/references/betting-markets?sport_key=${sport.key}`)).toEqual(await h.allIds(`/v1/references/betting-markets?sport_id=${sport.id}`));
    expectError(await h.get('/v1/references/betting-markets?sport_key=no-such-sport'), 404, 'NOT_FOUND');
  });
});
