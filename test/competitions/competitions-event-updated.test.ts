import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type Caller, forSuite, harness } from '../helpers/harness.js';
import { type Receiver, startReceiver, WEBHOOK_ENV } from '../helpers/webhooks.js';
import { smallDataset } from '../import/fixture.js';
import { bodyOf, deliver, type MadeEndpoint, verifyAt } from '../webhooks/end-to-end-fixture.js';
import { competitionsDataset, FUTURES, TOURNAMENT } from './golf-fixture.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;

/** The fixture's competitions as imported, with some of their fields changed. */
function competitionsWith(changes: Record<number, Json>): Json[] {
  return ((competitionsDataset().competitions ?? []) as Json[]).map((c) => ({ ...c, ...(changes[Number(c.id)] ?? {}) }));
}

/**
 * A competition's status, start or end changed by an import is told as event.updated, as a
 * matchup's status, start or score is (decision 0331), and only to an endpoint whose filters'
 * `event_kinds` names `competition`: an endpoint without it is told of the matchups alone, in the
 * shape they always had.
 */
describe.each(DIALECTS)('event.updated for competitions, end to end (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect, env: WEBHOOK_ENV }));
  let receiver: Receiver;
  let client: Caller;
  const endpoint = async (name: string, filters: Json): Promise<MadeEndpoint> => {
    const res = await client.post<MadeEndpoint>('/v1/webhooks', { url: `${receiver.url}/${name}`, event_types: ['event.updated'], filters });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    t.clock.set(Date.parse('2030-01-04T12:00:00Z'));
    client = t.as(await t.client({ tier: 'pro' }));
    await t.import(smallDataset());
    await t.import(competitionsDataset());
    await deliver(t);
  });
  afterAll(async () => receiver.close());

  it("tells a competition's status, start and end to the endpoints that ask for competitions, verified by the Standard Webhooks library, valid against the document", async () => {
    const both = await endpoint('both', { event_kinds: ['matchup', 'competition'] });
    const competitions = await endpoint('competitions', { event_kinds: ['competition'] });
    const matchups = await endpoint('matchups', {});
    // One import: the tournament goes live and ends an hour later, the futures market's start moves, a matchup goes live; the names alone change nothing.
    await t.import({
      competitions: competitionsWith({
        [TOURNAMENT]: { status: 'live', end_time: '2030-01-08T21:00:00Z' },
        [FUTURES]: { start_time: '2029-08-16T18:00:00Z', name: 'LaLiga 2029/30 champion' },
      }),
      events: [{ id: 100, league_id: 10, start_time: '2030-01-05T00:30:00Z', home_team_id: 1000, away_team_id: 1001, status: 'live' }],
    });
    await deliver(t);

    const document = (await t.anonymous.get('/openapi.json')).json<{ webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }> }>();
    const schema = document.webhooks['event.updated']?.post.requestBody.content['application/json']?.schema ?? false;
    const { results } = await client.ok<{ results: Array<{ type: string; data_schema: Json }> }>('/v1/webhook-event-types');
    const dataSchema = results.find((r) => r.type === 'event.updated')?.data_schema ?? false;
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    const told = (name: string, made: MadeEndpoint) =>
      receiver.at(name).map((received) => {
        const body = verifyAt(made.secret, received, t.clock.now()) as { type: string; data: Json };
        expect(ajv.validate(schema, body), `${received.body} ${ajv.errorsText()}`).toBe(true);
        expect(ajv.validate(dataSchema, body.data), `${received.body} ${ajv.errorsText()}`).toBe(true);
        expect(body.type).toBe('event.updated');
        return body.data as { sequence: number; event: Json; changed: string[] };
      });

    const tournament = {
      id: TOURNAMENT,
      kind: 'competition',
      sport_id: 3,
      league_id: 30,
      name: 'The Demo Open',
      type: 'tournament',
      participant_type: 'player',
      status: 'live',
      start_time: '2030-01-05T08:00:00.000Z',
      end_time: '2030-01-08T21:00:00.000Z',
    };
    const matchup = { id: 100, sport_id: 1, league_id: 10, status: 'live', start_time: '2030-01-05T00:30:00.000Z', home_team_id: 1000, away_team_id: 1001, home_score: null, away_score: null };
    expect(told('both', both).map(({ event, changed }) => [event.id, changed])).toEqual([
      [100, ['status']],
      [TOURNAMENT, ['status', 'end_time']],
      [FUTURES, ['start_time']],
    ]);
    const byId = new Map(told('both', both).map((d) => [d.event.id, d.event]));
    expect(byId.get(TOURNAMENT)).toEqual(tournament);
    expect(byId.get(FUTURES)).toMatchObject({ kind: 'competition', type: 'futures', participant_type: 'team', name: 'LaLiga 2029/30 champion', start_time: '2029-08-16T18:00:00.000Z' });
    expect(told('competitions', competitions).map(({ event }) => event.id)).toEqual([TOURNAMENT, FUTURES]);

    // Without competition in its event_kinds: the matchup alone, its event in the shape a matchup's always had, byte for byte.
    const [only, ...none] = receiver.at('matchups');
    expect(none).toEqual([]);
    expect(told('matchups', matchups)).toEqual([{ sequence: 1, event: matchup, changed: ['status'] }]);
    expect(JSON.parse(only?.body ?? '{}').data).toEqual({ sequence: 1, event: matchup, changed: ['status'] });
    expect(only?.body).toContain(`"data":{"sequence":1,"event":${JSON.stringify(matchup)},"changed":["status"]}`);
    expect(bodyOf(receiver.at('both')[0] ?? { path: '', headers: {}, body: '{}' }).data.event).toEqual(matchup);
  });

  it('tells nothing for a competition imported again unchanged, or for a new one', async () => {
    const before = receiver.received.length;
    await t.import({
      competitions: [
        ...competitionsWith({ [TOURNAMENT]: { status: 'live', end_time: '2030-01-08T21:00:00Z' }, [FUTURES]: { start_time: '2029-08-16T18:00:00Z' } }),
        { id: 5003, league_id: 30, name: 'The Next Open', type: 'tournament', participant_type: 'player', start_time: '2030-01-12T08:00:00Z', end_time: '2030-01-15T20:00:00Z' },
      ],
    });
    await deliver(t);
    expect(receiver.received.slice(before)).toEqual([]);
  });
});
