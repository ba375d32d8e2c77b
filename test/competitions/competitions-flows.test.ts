import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { type ErrorBody, forSuite, harness } from '../helpers/harness.js';
import { smallDataset } from '../import/fixture.js';
import { competitionsDataset, TOURNAMENT } from './golf-fixture.js';

/** A flow names its event's home and away team: the import refuses one on a competition, so the trends and their quotes answer matchups alone. */
describe.each(DIALECTS)('no flow of a competition (%s)', (dialect) => {
  const t = forSuite(() => harness({ dialect }));

  it('refuses a flow on a competition, and lists the matchups\' flows as before', async () => {
    t.clock.set(Date.parse('2030-01-04T12:00:00Z'));
    await t.import(smallDataset());
    const client = t.as(await t.client({ tier: 'enterprise' }));
    const before = (await client.post('/v1/trends/mixed-flows', {})).body;
    await t.import(competitionsDataset());
    const flow = { id: 90, flow_type: 'fact', event_id: TOURNAMENT, focus_entity_type: 'event', description: 'Golfer 1 has won 3 of his last 5', hits: 3, total: 5, likelihood: 'possible' };
    const refused = await t.admin.post<ErrorBody>('/admin/v1/import', { flows: [flow] });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.details?.map((d) => [d.field, d.rule])).toEqual([['flows[0].event_id', 'kind']]);
    expect((await client.post('/v1/trends/mixed-flows', {})).body).toBe(before);
  });
});
