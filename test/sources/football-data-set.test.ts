import { describe, expect, it } from 'vitest';
import { footballDataSet } from '../../bench/sources/football-data-set.js';
import { readFootballData } from '../../src/modules/sources/football-data/football-data.reader.js';

// The benchmark's generator (no database): this file runs once, not per dialect.

describe('the benchmark set of football-data files (bench/sources/football-data-set.ts)', () => {
  const set = footballDataSet({ leagues: 1 });

  it('is the same bytes for the same seed, other bytes for another', () => {
    const small = { leagues: 2, seasons: 2 };
    expect(footballDataSet(small).map((file) => file.text)).toEqual(footballDataSet(small).map((file) => file.text));
    expect(footballDataSet({ ...small, seed: 7 })[0]?.text).not.toBe(footballDataSet(small)[0]?.text);
  });

  it('has 20 seasons in the column set of each era, all read without a problem', () => {
    expect(set.map((file) => file.path)).toEqual(Array.from({ length: 20 }, (_, i) => `${String(5 + i).padStart(2, '0')}${String(6 + i).padStart(2, '0')}/E0.csv`));
    for (const file of set) {
      const batch = readFootballData(file.text);
      expect(batch.problems, file.path).toEqual([]);
      expect(batch.rows, file.path).toHaveLength(380);
    }
    const first = readFootballData(set[0]?.text ?? '');
    const last = readFootballData(set.at(-1)?.text ?? '');
    expect(new Set(first.rows.flatMap((row) => row.prices.map((price) => price.book.key))).has('gamebookers')).toBe(true);
    expect(new Set(last.rows.flatMap((row) => row.prices.map((price) => price.book.key))).has('betfair_ex_uk')).toBe(true);
  });
});
