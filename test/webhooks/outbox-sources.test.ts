import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { forSuite, harness } from '../helpers/harness.js';
import { recorded, type OddsApiEvent, type OddsApiScore } from '../sources/the-odds-api-expected.js';
import { entityOf } from '../sources/the-odds-api-proof.js';
import { lastOutboxId, outboxAfter } from './outbox.js';

/**
 * A source's results reach webhooks as a native import's do (decision 0312): the source importer
 * writes through the import's transaction, so its scores tell event.updated for the stored events
 * they change, and their grading result.graded.
 */

const ODDS = JSON.parse(recorded('odds-soccer_epl.json')) as OddsApiEvent[];
const SCORES = JSON.parse(recorded('scores-soccer_epl.json')) as OddsApiScore[];

describe.each(DIALECTS)('the outbox of a source import (%s)', (dialect) => {
  const h = forSuite(async () => {
    const t = await harness({ dialect });
    // What the transactions write is read here: the former, which takes the rows (and deletes them) after each import, is stopped.
    await t.ctx.webhookFormer.stop();
    return t;
  });
  const load = async (body: unknown, kind: string) => {
    const res = await h.admin.request({ method: 'POST', url: `/admin/v1/import/the-odds-api?kind=${kind}`, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
  };

  it("The Odds API's scores tell each stored event they change, with its score as the file gives it; again, nothing", async () => {
    await load(ODDS, 'odds');
    expect(await outboxAfter(h)).toEqual([]);
    await load(SCORES, 'scores');
    const rows = await outboxAfter(h);
    const updated = rows.filter((r) => r.type === 'event.updated');
    // The fourth game has no score and stays scheduled: nothing changed for it.
    const expected = await Promise.all(
      SCORES.filter((s) => s.scores !== null).map(async (s) => {
        const score = (team: string) => Number(s.scores?.find((x) => x.name === team)?.score);
        return { id: await entityOf(h.admin, 'event', s.id), status: s.completed ? 'final' : 'live', home_score: score(s.home_team), away_score: score(s.away_team) };
      }),
    );
    expect(updated.map((r) => ({ ...(r.data.event as Record<string, unknown>), changed: r.data.changed }))).toEqual(
      expected.sort((a, b) => a.id - b.id).map((e) => expect.objectContaining({ ...e, changed: ['status', 'score'] })),
    );
    // The two completed games are graded; the live one's rows are not told until they have a grade.
    const finals = await Promise.all(SCORES.filter((s) => s.completed).map((s) => entityOf(h.admin, 'event', s.id)));
    expect(rows.filter((r) => r.type === 'result.graded').map((r) => r.event_id)).toEqual(finals.sort((a, b) => a - b));

    const from = await lastOutboxId(h);
    await load(SCORES, 'scores');
    await load(ODDS, 'odds');
    expect(await outboxAfter(h, from)).toEqual([]);
  });
});
