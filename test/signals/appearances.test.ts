import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { opening, row, START } from './fixture.js';

interface Signal {
  type: string;
  event_id: number;
  price_decimal: number | null;
  detected_at: string;
  ended_at: string | null;
}

const at = (minutesBefore: number) => new Date(START - minutesBefore * 60_000).toISOString();

/** A signal is recorded once per appearance: from when it holds to when it no longer does; a new appearance after that is a new signal. */
describe.each(DIALECTS)('signal appearances (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect });
    await t.import(opening());
    await t.ctx.signals.run();
    return t;
  });
  const move = async (price: number, minutesBefore: number) => {
    await h.import({ odds: [row(200, 3, 'home', price, at(minutesBefore))] });
    await h.ctx.signals.run();
  };
  const signals = async () => {
    const caller = h.as({ apiKey: (await h.client({ tier: 'enterprise' })).apiKey });
    const page = await caller.page<Signal>('/v1/signals', { start_date: '2031-02-27', end_date: '2031-03-01', page_size: 100 });
    return page.results.map((s) => [s.type, s.price_decimal, s.detected_at, s.ended_at]).reverse();
  };

  it('a value bet that stays is one signal; gone, it ends at the change that took it; back, it is a new one', async () => {
    expect(await signals()).toEqual([]);
    await move(2.1, 120);
    await move(2.11, 110);
    expect(await signals()).toEqual([['value', 2.1, at(120), null]]);
    await move(1.9, 100);
    expect(await signals()).toEqual([['value', 2.1, at(120), at(100)]]);
    await move(2.1, 90);
    expect(await signals()).toEqual([
      ['value', 2.1, at(120), at(100)],
      ['value', 2.1, at(90), null],
    ]);
  });

  it('a change after the start of a game that is not live records nothing, and ends what was open', async () => {
    await move(2.2, -30);
    expect((await signals()).at(-1)).toEqual(['value', 2.1, at(90), at(-30)]);
  });
});
