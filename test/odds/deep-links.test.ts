import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, reader } from '../helpers/harness.js';
import { expectError } from '../helpers/responses.js';
import { smallDataset } from '../import/fixture.js';

const WEB = 'https://book.example/bet?s={operator_selection_id}&e={event_id}&m={betting_market_id}';
const IOS = 'https://app.book.example/s/{operator_selection_id}/{position}';

/** Northstar Bet (operator 1) with web and iOS templates; its home price has its own selection id, one that needs escaping. */
function dataset() {
  const d = smallDataset();
  d.operators = d.operators.map((o) => (o.id === 1 ? { ...o, bet_web_deep_link_template: WEB, bet_ios_deep_link_template: IOS } : o));
  d.odds = d.odds.map((o) => (o.id === 1 ? { ...o, operator_selection_id: 'abc/ 1&x=2' } : o));
  // The selection flow 2 bets on (Tatum over 26.5 points), at Northstar Bet.
  d.odds.push({ id: 20, event_id: 100, operator_id: 1, betting_market_id: 3, position: 'over', line: 26.5, price_decimal: 1.9, operator_selection_id: 'tatum-o26.5' });
  // Selection ids that are dot segments: in a link's path a browser would climb with them.
  d.odds.push({ id: 21, event_id: 100, operator_id: 1, betting_market_id: 3, position: 'under', line: 26.5, price_decimal: 1.9, operator_selection_id: '..' });
  d.odds.push({ id: 22, event_id: 100, operator_id: 1, betting_market_id: 3, position: 'over', line: 27.5, price_decimal: 2.1, operator_selection_id: '.' });
  return d;
}

interface Links {
  id: number;
  bet_web_deep_link_url?: string | null;
  bet_ios_deep_link_url?: string | null;
  bet_android_deep_link_url?: string | null;
}

describe.each(DIALECTS)('deep links (%s)', (dialect) => {
  const h = forSuite(() => reader({ dialect, dataset: dataset() }));
  const oddsOf = async (body: Record<string, unknown>) => (await h.page<Links>('/v1/odds/upcoming-odds-by-event', { event_id: 100, ...body })).results;

  it('odds items carry the operator links only with include_deeplinks, every value percent-encoded', async () => {
    const plain = await oddsOf({});
    expect(plain.every((o) => !('bet_web_deep_link_url' in o))).toBe(true);
    const linked = new Map((await oddsOf({ include_deeplinks: true })).map((o) => [o.id, o]));
    expect(linked.get(1)).toMatchObject({
      bet_web_deep_link_url: 'https://book.example/bet?s=abc%2F%201%26x%3D2&e=100&m=1',
      bet_ios_deep_link_url: 'https://app.book.example/s/abc%2F%201%26x%3D2/home',
      bet_android_deep_link_url: null,
    });
    // Odds 2 has no selection id of its own, which both templates name; kingsbet has no templates.
    expect(linked.get(2)).toMatchObject({ bet_web_deep_link_url: null, bet_ios_deep_link_url: null, bet_android_deep_link_url: null });
    expect(linked.get(4)).toMatchObject({ bet_web_deep_link_url: null, bet_ios_deep_link_url: null, bet_android_deep_link_url: null });
  });

  it('a selection id that is a dot segment gives no link where it would be a path segment (it would climb the path), and its link where it is a query value', async () => {
    const linked = new Map((await oddsOf({ include_deeplinks: true })).map((o) => [o.id, o]));
    for (const [id, selection] of [[21, '..'], [22, '.']] as const) {
      const links = linked.get(id);
      expect(links?.bet_ios_deep_link_url, selection).toBeNull();
      expect(links?.bet_web_deep_link_url, selection).toBe(`https://book.example/bet?s=${selection}&e=100&m=3`);
      // Whatever is given, no link leaves its template's path.
      for (const link of [links?.bet_web_deep_link_url, links?.bet_ios_deep_link_url]) if (link) expect(new URL(link).href).toBe(link);
    }
  });

  it('board prices carry them too, with include_deeplinks', async () => {
    type Item = { position: string; prices: Array<Links & { operator: { id: number } }> };
    const board = async (body: Record<string, unknown>) => (await h.page<Item & { id?: number }>('/v1/odds/board', { event_ids: [100], ...body })).results;
    const home = (await board({ include_deeplinks: true })).find((i) => i.position === 'home');
    expect(home?.prices[0]).toMatchObject({ operator: { id: 1 }, bet_web_deep_link_url: 'https://book.example/bet?s=abc%2F%201%26x%3D2&e=100&m=1' });
    const without = (await board({})).find((i) => i.position === 'home');
    expect(without?.prices[0] && 'bet_web_deep_link_url' in without.prices[0]).toBe(false);
  });

  it('flows carry the links of the one operator asked, by id or by key, from its odds row of the flow\'s selection', async () => {
    type Flow = Links & { legs: Links[] };
    const flows = async (body: Record<string, unknown>) => (await h.page<Flow>('/v1/trends/flows', { event_id: 100, flow_type: 'fun', include_deeplinks: true, ...body })).results;
    for (const operator of [{ operator_ids: [1] }, { operator_keys: ['northstar-bet'] }]) {
      const [flow] = await flows(operator);
      expect(flow).toMatchObject({
        id: 2,
        bet_web_deep_link_url: 'https://book.example/bet?s=tatum-o26.5&e=100&m=3',
        bet_ios_deep_link_url: 'https://app.book.example/s/tatum-o26.5/over',
        bet_android_deep_link_url: null,
      });
    }
    const [without] = (await h.page<Flow>('/v1/trends/flows', { event_id: 100, flow_type: 'fun', operator_ids: [1] })).results;
    expect(without && 'bet_web_deep_link_url' in without).toBe(false);
  });

  it.each([
    ['http://book.example/bet/{operator_selection_id}', 'https'],
    ['javascript:alert(1)//{event_id}', 'https'],
    ['https://book.example/bet/{user_id}', 'unknown placeholder'],
    ['https://{position}.example/bet', 'host'],
    ['https://book.example/bet/{event_id', 'brace'],
    // What a URL parser drops or reads otherwise than another: line breaks, tabs, leading spaces, backslashes.
    ['https://book.example/bet/\r\n{event_id}', 'control character'],
    ['https://book.example/bet/\t{event_id}', 'control character'],
    [' https://book.example/bet/{event_id}', 'space'],
    ['https://book.example/bet/{event_id} ', 'space'],
    ['https://evil.example\\@book.example/bet/{event_id}', 'backslash'],
    ['https://book.example/bet\\{event_id}', 'backslash'],
    // A dot segment of its own, written or encoded: the link would not be the path written.
    ['https://book.example/a/../bet/{event_id}', 'dot segment'],
    ['https://book.example/a/%2e%2E/bet/{event_id}', 'dot segment'],
  ])('a template %s is refused at import (422), and nothing is written', async (template, words) => {
    const operator = { id: 1, key: 'northstar-bet', name: 'Northstar Bet', bet_android_deep_link_template: template };
    const res = await h.t.admin.post('/admin/v1/import', { operators: [operator] });
    expectError(res, 422, 'VALIDATION_ERROR', 'operators[0].bet_android_deep_link_template');
    expect(res.body).toContain(words);
    const linked = (await oddsOf({ include_deeplinks: true })).find((o) => o.id === 1);
    expect(linked?.bet_android_deep_link_url).toBeNull();
  });
});
