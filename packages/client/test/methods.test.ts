import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OnboardedClient } from '../../../test/helpers/clients.js';
import { smallDataset } from '../../../test/import/fixture.js';
import { OPERATIONS } from '../src/generated/operations.js';
import { type ClientEvent, MemoryTokenStore, SportsDataClient, SportsDataError } from '../src/index.js';
import { type Captured, capturingFetch, runningClock, type Server, startServer } from './helpers/server.js';

/** Every typed method against the real server with a small dataset, the errors it answers, and where the secrets go. */
describe('the typed methods, errors as values, and no token in any URL or log', () => {
  const clock = runningClock(Date.parse('2030-01-05T12:00:00Z'));
  let server: Server;
  let client: OnboardedClient;
  let api: SportsDataClient;
  let requests: Captured[];
  const events: ClientEvent[] = [];
  const store = new MemoryTokenStore();
  beforeAll(async () => {
    // Loopback allowed: a webhook endpoint of the test points at this very server.
    server = await startServer({ clock, env: { OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32' } });
    await server.t.import(smallDataset());
    client = await server.t.client();
    const capture = capturingFetch();
    requests = capture.requests;
    api = new SportsDataClient({ baseUrl: server.baseUrl, apiKey: client.apiKey, fetch: capture.fetch, clock, tokenStore: store, log: (e) => events.push(e) });
  });
  afterAll(async () => server.close());

  it('every method of the table answers its typed result', async () => {
    expect(await api.account.config()).toMatchObject({ client_id: client.clientId, tier: 'pro', auth_method: 'both' });
    expect((await api.account.usage({ start_date: '2030-01-05', end_date: '2030-01-05' })).days).toHaveLength(1);
    // A date-time, as Odditt's client sends it, stands for its UTC day.
    expect((await api.account.usage({ start_date: '2030-01-04T23:30:00.000000-0100', end_date: '2030-01-05T08:00:00' })).days.map((d) => d.date)).toEqual(['2030-01-05']);
    const hours = await api.account.usageHours({ date: '2030-01-05' });
    expect([hours.date, hours.hours.length]).toEqual(['2030-01-05', 24]);
    const created = await api.account.apiKeys.create({ name: 'rotation' });
    expect(created.api_key).toMatch(/^sdk_/);
    expect((await api.account.apiKeys()).results.map((k) => k.key_code)).toContain(created.key_code);
    await expect(api.account.apiKeys.delete({ key_code: created.key_code })).resolves.toBeUndefined();
    const secret = await api.account.secrets.create();
    expect(secret.client_secret).toMatch(/^sds_/);
    expect((await api.account.secrets.list({ page_size: 100 })).total_count).toBe(2);
    await api.account.secrets.delete({ secret_code: secret.secret_code });
    // Each of those changes is in the account's audit log, newest first.
    expect((await api.account.auditLog({ page_size: 3 })).results.map((e) => e.action)).toEqual(['secret.deleted', 'secret.created', 'api_key.deleted']);

    expect((await api.references.sports()).results.map((s) => s.key)).toEqual(['basketball', 'soccer']);
    expect((await api.references.leagues({ sport_key: 'basketball' })).total_count).toBe(2);
    expect((await api.references.teams({ league_key: 'nba' })).results.map((t) => t.name)).toEqual(['Boston Celtics', 'New York Knicks']);
    expect((await api.references.leagues({ country_id: 2 })).results.map((l) => [l.key, l.is_popular])).toEqual([['la-liga', false]]);
    expect((await api.references.leagues({ is_popular: true })).total_count).toBe(0);
    expect((await api.references.teams({ start_date: '2030-01-05', end_date: '2030-01-05', league_id: 10 })).results.map((t) => t.id)).toEqual([1000, 1001]);
    expect((await api.references.teams({ end_date: '2030-01-04' })).total_count).toBe(0);
    expect((await api.references.players({ team_key: 'boston-celtics' })).results[0]?.name).toBe('Jayson Tatum');
    expect((await api.references.operators({ search: 'king' })).results).toHaveLength(1);
    expect((await api.references.bettingMarkets({ sport_id: 1 })).total_count).toBe(3);

    // Today, by the server's clock (5 January 2030): event 100 starts at 00:30 UTC.
    const today = await api.events.upcoming();
    expect(today.results.map((e) => e.id)).toContain(100);
    const odds = await api.odds.upcomingByEvent({ event_id: 100, operator_keys: ['kingsbet'] });
    expect(odds.results.map((o) => o.position).sort()).toEqual(['over', 'under']);
    expect((await api.trends.flows({ event_id: 100, flow_type: 'fun' })).results[0]?.flow_type).toBe('fun');
    expect((await api.trends.mixedFlows({ league_key: 'nba', page_size: 25 })).total_count).toBeGreaterThan(1);
    // The board of event 100 at kingsbet: one item per selection; its over is suspended, so on no board.
    const board = await api.odds.board({ event_ids: [100], operator_ids: [2] });
    expect(board.results.map((i) => [i.position, i.best.price_decimal])).toEqual([['under', 1.91]]);
    // Edges over the same selections: no arbitrage in one book's market; every price counted.
    const edges = await api.odds.edges({ event_ids: [100], min_edge: -100 });
    expect(edges.arbitrages_total).toBe(0);
    expect(edges.value_bets.every((b) => typeof b.ev_pct === 'number')).toBe(true);
    // The movement of the board's selection: kingsbet's under, opened at 1.91 and never moved.
    const movement = await api.odds.movement({ event_ids: [100], operator_ids: [2] });
    expect(movement.results.map((i) => [i.position, i.books.map((b) => [b.operator.id, b.movement.opening.price_decimal, b.movement.moves])])).toEqual([['under', [[2, 1.91, 0]]]]);
    // Steam moves and drops (a pro client): none found in this dataset's one import, a page all the same.
    const moves = await api.odds.moves({ event_ids: [100], types: ['steam', 'drop'] });
    expect(moves.results).toEqual([]);
    // Signals are the enterprise tier's: this pro client is told so, as an error it can read.
    await expect(api.signals.list({ page_size: 10 })).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await expect(api.signals.performance({})).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const american = await api.odds.upcomingByEvent({ event_id: 100, odds_format: 'american' });
    expect(american.results.every((o) => Number.isInteger(o.price))).toBe(true);
    // The price history (a pro client): each odds row's opening entry, here with its price in the format asked.
    const history = await api.odds.historyByEvent({ event_id: 100, odds_format: 'american' });
    expect(history.total_count).toBeGreaterThan(0);
    expect(history.results.every((c) => c.price_decimal.from === null && Number.isInteger(c.price?.to))).toBe(true);
    const historical = await api.historical.events({ start_date: '2030-01-05', end_date: '2030-01-05' });
    expect(historical.results.find((e) => e.id === 100)).toMatchObject({ json_url: '/v1/historical/odds/100.json', csv_url: '/v1/historical/odds/100.csv' });
    // Results (a pro client): event 200 is postponed and its market has no settlement rule, so its rows are ungraded and say why.
    const results = await api.results.byEvent({ event_id: 200 });
    expect([results.status, results.grades.map((g) => [g.outcome, g.reason])]).toEqual(['postponed', [[null, 'unknown_rule'], [null, 'unknown_rule']]]);
    expect((await api.results.graded({ start_date: '2030-01-05', end_date: '2030-01-05' })).total_count).toBe(0);
    const clv = await api.results.clv({ prices: [{ event_betting_market_position_id: 999_999, operator_id: 1, price: 2 }] });
    expect(clv.results[0]?.reason).toBe('unknown_selection');

    // The rest of the catalogue: every list answers its page (the small dataset may hold none of some).
    for (const list of [
      api.references.countries,
      api.references.bettingMarketCategories,
      api.references.bettingMarketPositions,
      api.references.eventPeriods,
      api.references.playerStatistics,
      api.references.oddsFormats,
    ]) {
      expect((await list()).page).toBe(1);
    }
    expect((await api.references.oddsFormats()).results.map((f) => f.key)).toContain('fractional');
    // Competitions: the small dataset has none, a page all the same; an unknown one's participants are 404.
    expect((await api.events.competitions()).page).toBe(1);
    await expect(api.events.competitionParticipants({ event_id: 999_999 })).rejects.toBeInstanceOf(SportsDataError);
    // The flow tag taxonomy and the regions of a country.
    expect((await api.references.subnationalRegions({ country_id: 1 })).results.map((r) => r.code)).toEqual(['NJ']);
    expect((await api.references.tagDimensions({ flow_type: 'fact_flow' })).results.map((d) => d.key)).toEqual(['situation', 'bet']);
    expect((await api.references.tagTypes({ search: 'home' })).results[0]?.breadcrumbs).toEqual([{ id: 10, key: 'venue', name: 'Venue' }]);
    const children = await api.references.tagTypeChildren({ tag_type_id: 11, include_values: true });
    expect([children.parent.name, children.results.map((t) => t.name)]).toEqual(['Home', ['Last 10 Games']]);
    const fun = (await api.trends.flows({ event_id: 100, flow_type: 'fun' })).results[0];
    const byId = await api.trends.flowsById({ flow_ids: [fun?.id ?? 0, 999_999] });
    expect(byId.missing_ids).toEqual([999_999]);
    expect((await api.trends.leaguesWithAvailableFlows({ sport_key: 'basketball' })).page).toBe(1);
    await expect(api.trends.flowGraphData({ fact_flow_id: 999_999 })).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    // The flows on a selection, and one flow's tooltip.
    const selection = fun?.event_betting_market_position_id ?? 0;
    const onSelection = await api.trends.bySelection({ event_betting_market_position_ids: [selection], odds_format: 'percent' });
    expect(onSelection.results.map((f) => f.id)).toContain(fun?.id);
    expect((await api.trends.flowTooltip({ flow_type: 'fun', flow_id: fun?.id ?? 0 })).flow_id).toBe(fun?.id);
    await expect(api.trends.flowTooltip({ flow_type: 'fact', flow_id: fun?.id ?? 0 })).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });

    // Quotes: none without a check endpoint; the endpoint set, read and removed; the sandbox priced directly.
    const quoteItem = { flow_id: fun?.id ?? 0, flow_type: 'fun' as const, event_betting_market_position_ids: [1], country: 'US' };
    await expect(api.trends.quote({ items: [quoteItem] })).rejects.toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    const sandboxUrl = `${server.baseUrl}/v1/trends/flows/quote-sandbox`;
    expect((await api.account.setCheckEndpoint({ url: sandboxUrl, method: 'POST', auth_token: 'sandbox-token-1234' })).data).toMatchObject({ url: sandboxUrl, auth_token_preview: '…1234' });
    expect((await api.account.checkEndpoint()).data?.allow_multiple).toBe(false);
    const priceable = { ...quoteItem, event_betting_market_position_ids: [fun?.event_betting_market_position_id ?? 0] };
    expect((await api.trends.quote({ items: [priceable] })).map((r) => r.status)).toEqual([200]);
    const priced = await api.trends.quoteSandbox({ flow_id: 1, flow_type: 'fact', country: 'US', event_betting_market_position_maps: [{ event_betting_market_position_id: 11 }] });
    expect(priced.flow_id).toBe(1);
    expect(await api.account.deleteCheckEndpoint()).toEqual({ success: true, data: null });

    // The change cursor: the price changes after an id, a page at a time.
    const changes = await api.odds.changes({ after: 0, limit: 5 });
    expect(changes.results.length).toBeGreaterThan(0);
    expect(changes.next_after).toBe(changes.results.at(-1)?.id);
    // Webhooks: an endpoint on this very server, whose test message its 404 answers; its deliveries,
    // a replay (nothing numbered yet to send again) and a retry (a test message is never sent again).
    expect((await api.webhooks.eventTypes()).results.length).toBeGreaterThan(0);
    const hook = await api.webhooks.create({ url: `${server.baseUrl}/no-receiver-here`, event_types: ['odds.changed'] });
    expect((await api.webhooks.list()).results.map((w) => w.id)).toEqual([hook.id]);
    expect(await api.webhooks.update({ id: hook.id, description: 'methods' })).toMatchObject({ id: hook.id, description: 'methods' });
    expect((await api.webhooks.get({ id: hook.id })).description).toBe('methods');
    const tried = await api.webhooks.test({ id: hook.id });
    expect(tried.status_code).toBe(404);
    expect((await api.webhooks.rotateSecret({ id: hook.id })).secret).toMatch(/^whsec_/);
    const hookDeliveries = await api.webhooks.deliveries({ id: hook.id });
    expect(hookDeliveries.results.map((d) => d.id)).toEqual([tried.delivery_id]);
    await expect(api.webhooks.retryDelivery({ id: hook.id, delivery_id: tried.delivery_id })).rejects.toBeInstanceOf(SportsDataError);
    await expect(api.webhooks.replay({ id: hook.id, from_sequence: 1 })).rejects.toBeInstanceOf(SportsDataError);
    await api.webhooks.delete({ id: hook.id });

    // Each operation of the table was sent, with its parameters where the document puts them.
    const sent = new Set(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`));
    for (const spec of Object.values(OPERATIONS)) {
      const path = spec.path.replace(/\{[^}]+\}/g, '[^/]+');
      expect([...sent].some((s) => new RegExp(`^${spec.method} ${path}$`).test(s)), `${spec.method} ${spec.path}`).toBe(true);
    }
    expect(requests.find((r) => r.url.includes('/v1/references/teams'))?.url).toBe(`${server.baseUrl}/v1/references/teams?league_key=nba`);
    expect(requests.find((r) => r.url.endsWith('/v1/odds/upcoming-odds-by-event'))?.method).toBe('POST');
  });

  it('errors are SportsDataError values with status, code, message and request_id; a 422 names its fields', async () => {
    const missing = await api.references.teams({ league_key: 'nowhere' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SportsDataError);
    expect(missing).toMatchObject({ name: 'SportsDataError', status: 404, code: 'NOT_FOUND', reason: undefined });
    expect((missing as SportsDataError).message).toMatch(/nowhere/);

    const invalid = await api.trends.flows({ page_size: 26 }, { requestId: 'my-request-1' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', request_id: 'my-request-1', details: [{ field: 'page_size', rule: 'maximum' }] });

    // Not sent at all: a path parameter is missing.
    await expect(api.account.apiKeys.delete({ key_code: '' })).rejects.toThrow(TypeError);
  });

  it('the constructor refuses options that cannot work', () => {
    const baseUrl = server.baseUrl;
    expect(() => new SportsDataClient({ baseUrl, apiKey: '' })).toThrow(/either apiKey, or clientId and clientSecret/);
    expect(() => new SportsDataClient({ baseUrl: 'ftp://example.com', apiKey: 'sdk_x' })).toThrow(/http or https/);
    expect(() => new SportsDataClient({ baseUrl: `${baseUrl}?api_key=x`, apiKey: 'sdk_x' })).toThrow(/no query/);
    expect(() => new SportsDataClient({ baseUrl, clientId: 'a', clientSecret: 'b', authMode: 'apiKeyHeader' as 'token' })).toThrow(/needs an apiKey/);
    expect(() => new SportsDataClient({ baseUrl, apiKey: 'sdk_x', timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('no token, key or secret appears in any URL the SDK requested, in what it logged, or in the client when printed', async () => {
    // A refresh and a logout on top of the calls above, so that every kind of request was made.
    clock.advance(870_000);
    await api.references.sports({ search: 'ball' });
    await api.logout();
    await api.account.config();

    const secrets = new Set([client.apiKey, client.clientSecret]);
    for (const request of requests) {
      for (const match of (request.body ?? '').matchAll(/"(?:access_token|refresh_token)":"([^"]+)"/g)) secrets.add(match[1] ?? '');
    }
    expect([...secrets].filter((s) => s.startsWith('eyJ'))).not.toHaveLength(0);
    expect([...secrets].filter((s) => s.startsWith('sdr_')).length).toBeGreaterThanOrEqual(3);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['login', 'refresh']));

    const urls = requests.map((r) => r.url);
    const logged = JSON.stringify(events);
    const printed = inspect(api, { depth: 5 });
    for (const secret of secrets) {
      expect(urls.filter((url) => url.includes(secret))).toEqual([]);
      expect(logged).not.toContain(secret);
      expect(printed).not.toContain(secret);
    }
    // Credentials went in headers only, bearer tokens on data calls.
    expect(requests.filter((r) => r.url.includes('/v1/references/')).every((r) => r.headers.authorization?.startsWith('Bearer eyJ'))).toBe(true);
    expect(store.get()?.access_token).toMatch(/^eyJ/);
  });
});
