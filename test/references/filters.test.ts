import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/app.js';
import { LEAGUE, SPORT } from '../fixtures/references.js';
import { expectError } from '../helpers/responses.js';
import { forSuite, reader } from '../helpers/harness.js';
import { idsOf } from '../helpers/responses.js';
import { referenceDataset } from '../fixtures/references.js';

describe.each(DIALECTS)('reference lists: filters, keys and item shapes (%s)', (dialect) => {
  const data = referenceDataset();
  const h = forSuite(() => reader({ dialect, dataset: { ...data } }));

  const teamsOf = (...leagues: number[]) => idsOf(data.teams.filter((t) => leagues.includes(t.league_id)));
  const playersOf = (teams: number[]) => idsOf(data.players.filter((p) => teams.includes(p.team_id)));
  const teamId = (key: string, league: number) => data.teams.find((t) => t.key === key && t.league_id === league)?.id ?? -1;

  describe('item shapes', () => {
    it('sport {id, key, name}', async () => {
      expect((await h.page('/v1/references/sports?page_size=1')).results).toEqual([{ id: 1, key: 'basketball', name: 'Basketball' }]);
    });

    it('league with its qualified key and country, or country null', async () => {
      const body = await h.page('/v1/references/leagues?sport_id=1');
      expect(body.results).toEqual([
        { id: 10, key: 'nba', qualified_key: 'united-states.nba', name: 'National Basketball Association', sport_id: 1, country: { key: 'united-states', name: 'United States' }, is_popular: true },
        { id: 11, key: 'euroleague', qualified_key: 'euroleague', name: 'EuroLeague', sport_id: 1, country: null, is_popular: false },
        { id: 12, key: 'ncaab', qualified_key: 'united-states.ncaab', name: "NCAA Men's Basketball", sport_id: 1, country: { key: 'united-states', name: 'United States' }, is_popular: false },
      ]);
    });

    it('team with sport and league; a missing abbreviation or location is null', async () => {
      const body = await h.page('/v1/references/teams?league_key=nba&page=3');
      expect(body.results[0]).toEqual({
        id: 1041, key: 'nashville-sounds', qualified_key: 'nba.nashville-sounds', name: 'Nashville Sounds', abbreviation: 'NS'.padEnd(3, 'X'),
        location: 'Nashville', sport_id: SPORT.basketball, league_id: LEAGUE.nba, league_key: 'nba',
      });
      expect(body.results.at(-1)).toEqual({
        id: 1047, key: 'anchorage-glaciers', qualified_key: 'nba.anchorage-glaciers', name: 'Anchorage Glaciers', abbreviation: null,
        location: null, sport_id: SPORT.basketball, league_id: LEAGUE.nba, league_key: 'nba',
      });
    });

    it('player with its team; a missing position is null', async () => {
      const [first, second] = (await h.page('/v1/references/players?page_size=2')).results;
      expect(first).toEqual({ id: 10011, key: 'james-jordan-0', name: 'James Jordan', position: null, team_id: 1001, team_key: 'atlanta-hawks' });
      expect(second).toEqual({ id: 10012, key: 'kevin-walker-1', name: 'Kevin Walker', position: 'F', team_id: 1001, team_key: 'atlanta-hawks' });
    });

    it('operator and betting market', async () => {
      expect((await h.page('/v1/references/operators?page_size=1')).results).toEqual([{ id: 1, key: 'draftkings', name: 'DraftKings' }]);
      expect((await h.page('/v1/references/betting-markets?page_size=1')).results).toEqual([
        { id: 101, key: 'player-points', name: 'Player Points', category: 'player-props', category_id: 2, entity_type: 'player' },
      ]);
    });
  });

  describe('search: case-insensitive substring of the name or the key', () => {
    it('sports', async () => {
      expect(await h.allIds('/v1/references/sports?search=BALL')).toEqual([SPORT.basketball, SPORT.americanFootball, SPORT.baseball]);
      // "ice-" is only in the key (the name is "Ice Hockey").
      expect(await h.allIds('/v1/references/sports?search=ice-')).toEqual([SPORT.iceHockey]);
    });

    it('leagues, alone and with a sport', async () => {
      expect(await h.allIds('/v1/references/leagues?search=premier')).toEqual([LEAGUE.premierEngland, LEAGUE.premierWales]);
      expect(await h.allIds('/v1/references/leagues?search=national')).toEqual([10, 30, 40]);
      expect(await h.allIds('/v1/references/leagues?search=national&sport_id=3')).toEqual([30]);
    });

    it('teams, alone and within a league; unicode names', async () => {
      expect(await h.allIds('/v1/references/teams?search=Angeles')).toEqual([1013, 1014, 3001]);
      expect(await h.allIds('/v1/references/teams?search=angeles&league_key=nba')).toEqual([1013, 1014]);
      // Only the key "connahs-quay" has it; the name is "Connah's Quay Nomads".
      expect(await h.allIds('/v1/references/teams?search=connahs')).toEqual([2103]);
      expect(await h.allIds('/v1/references/teams?search=%C5%BDALGIRIS')).toEqual([1104]);
    });

    it('players, alone and within a league', async () => {
      const jordans = idsOf(data.players.filter((p) => p.name.includes('Jordan')));
      expect(jordans.length).toBeGreaterThan(2);
      expect(await h.allIds('/v1/references/players?search=jordan')).toEqual(jordans);
      const england = playersOf(teamsOf(LEAGUE.premierEngland));
      expect(await h.allIds('/v1/references/players?search=JORDAN&league_key=england.premier-league')).toEqual(jordans.filter((id) => england.includes(id)));
    });

    it('operators', async () => {
      const bet = await h.allIds('/v1/references/operators?search=bet');
      expect(bet).toEqual(idsOf(data.operators.filter((o) => o.name.toLowerCase().includes('bet'))));
      expect(bet).toContain(6); // bet365
      expect(bet).not.toContain(1); // DraftKings
      expect(await h.allIds('/v1/references/operators?search=sky-')).toEqual([17]); // key "sky-bet"
    });

    it('betting markets, alone and with a sport', async () => {
      expect(await h.allIds('/v1/references/betting-markets?search=total')).toEqual([110, 204, 205, 903, 905, 906]);
      expect(await h.allIds('/v1/references/betting-markets?search=total&sport_id=2')).toEqual([204, 205, 903, 905, 906]);
    });

    it('an empty search is no filter', async () => {
      expect((await h.page('/v1/references/sports?search=')).total_count).toBe(5);
    });
  });

  describe('leagues by sport', () => {
    it('by sport_id and by sport_key (any case)', async () => {
      const basketball = idsOf(data.leagues.filter((l) => l.sport_id === SPORT.basketball));
      expect(basketball).toEqual([10, 11, 12]);
      expect(await h.allIds('/v1/references/leagues?sport_id=1')).toEqual(basketball);
      expect(await h.allIds('/v1/references/leagues?sport_key=basketball')).toEqual(basketball);
      expect(await h.allIds('/v1/references/leagues?sport_key=Basketball')).toEqual(basketball);
    });

    it('the id wins over the key, which is then not even resolved', async () => {
      const soccer = idsOf(data.leagues.filter((l) => l.sport_id === SPORT.soccer));
      expect(await h.allIds('/v1/references/leagues?sport_id=2&sport_key=basketball')).toEqual(soccer);
      expect(await h.allIds('/v1/references/leagues?sport_id=2&sport_key=no-such-sport')).toEqual(soccer);
    });

    it('an unknown sport key or id is 404', async () => {
      expectError(await h.get('/v1/references/leagues?sport_key=curling'), 404, 'NOT_FOUND');
      expectError(await h.get('/v1/references/leagues?sport_id=999'), 404, 'NOT_FOUND');
    });
  });

  describe('teams by league', () => {
    it('`nba`, `united-states.nba` and `NBA` name the same league', async () => {
      const nba = teamsOf(LEAGUE.nba);
      for (const key of ['nba', 'united-states.nba', 'NBA']) expect(await h.allIds(`/v1/references/teams?league_key=${key}`)).toEqual(nba);
      expect(await h.allIds('/v1/references/teams?league_id=10')).toEqual(nba);
    });

    it('a league without a country is named by its plain key', async () => {
      expect(await h.allIds('/v1/references/teams?league_key=euroleague')).toEqual(teamsOf(LEAGUE.euroleague));
    });

    it('the id wins over the key, which is then not even resolved', async () => {
      const euroleague = teamsOf(LEAGUE.euroleague);
      expect(await h.allIds('/v1/references/teams?league_id=11&league_key=nba')).toEqual(euroleague);
      expect(await h.allIds('/v1/references/teams?league_id=11&league_key=premier-league')).toEqual(euroleague);
      expect(await h.allIds('/v1/references/teams?league_id=11&league_key=no-such-league')).toEqual(euroleague);
    });

    it('a key shared by two leagues is 409 AMBIGUOUS_LOOKUP; the qualified keys tell them apart', async () => {
      const error = expectError(await h.get('/v1/references/teams?league_key=premier-league'), 409, 'AMBIGUOUS_LOOKUP');
      expect(error.message).toContain('league_key');
      expect(await h.allIds('/v1/references/teams?league_key=england.premier-league')).toEqual(teamsOf(LEAGUE.premierEngland));
      expect(await h.allIds('/v1/references/teams?league_key=wales.premier-league')).toEqual(teamsOf(LEAGUE.premierWales));
    });

    it('an unknown league key or id is 404 NOT_FOUND', async () => {
      expectError(await h.get('/v1/references/teams?league_key=no-such-league'), 404, 'NOT_FOUND');
      expectError(await h.get('/v1/references/teams?league_key=canada.nba'), 404, 'NOT_FOUND');
      expectError(await h.get('/v1/references/teams?league_id=999'), 404, 'NOT_FOUND');
    });
  });

  describe('players by team and by league', () => {
    it('by team_id, team_key and the qualified `league.team`', async () => {
      const hawks = playersOf([1001]);
      expect(hawks).toHaveLength(3);
      for (const query of ['team_id=1001', 'team_key=atlanta-hawks', 'team_key=nba.atlanta-hawks', 'team_key=united-states.nba.atlanta-hawks']) {
        expect(await h.allIds(`/v1/references/players?${query}`)).toEqual(hawks);
      }
    });

    it('a team key in two leagues is 409; `league.team` or `country.league.team` names one', async () => {
      expectError(await h.get('/v1/references/players?team_key=real-madrid'), 409, 'AMBIGUOUS_LOOKUP');
      expect(await h.allIds('/v1/references/players?team_key=la-liga.real-madrid')).toEqual(playersOf([2201]));
      // Both premier leagues have a team "united": `premier-league.united` is still ambiguous.
      expectError(await h.get('/v1/references/players?team_key=united'), 409, 'AMBIGUOUS_LOOKUP');
      expectError(await h.get('/v1/references/players?team_key=premier-league.united'), 409, 'AMBIGUOUS_LOOKUP');
      expect(await h.allIds('/v1/references/players?team_key=england.premier-league.united')).toEqual(playersOf([teamId('united', LEAGUE.premierEngland)]));
      expect(await h.allIds('/v1/references/players?team_key=wales.premier-league.united')).toEqual(playersOf([teamId('united', LEAGUE.premierWales)]));
    });

    it('the team id wins over the team key, which is then not even resolved', async () => {
      expect(await h.allIds('/v1/references/players?team_id=2001&team_key=united')).toEqual(playersOf([2001]));
      expect(await h.allIds('/v1/references/players?team_id=2001&team_key=nobody')).toEqual(playersOf([2001]));
    });

    it('by league_key, plain and qualified; a shared league key is 409', async () => {
      const nba = playersOf(teamsOf(LEAGUE.nba));
      expect(nba).toHaveLength(141);
      expect(await h.allIds('/v1/references/players?league_key=nba')).toEqual(nba);
      expect(await h.allIds('/v1/references/players?league_key=united-states.nba')).toEqual(nba);
      expect(await h.allIds('/v1/references/players?league_key=wales.premier-league')).toEqual(playersOf(teamsOf(LEAGUE.premierWales)));
      expectError(await h.get('/v1/references/players?league_key=premier-league'), 409, 'AMBIGUOUS_LOOKUP');
    });

    it('team and league filters both apply', async () => {
      expect(await h.allIds('/v1/references/players?league_key=nba&team_key=atlanta-hawks')).toEqual(playersOf([1001]));
      expect(await h.allIds('/v1/references/players?league_key=nba&team_key=arsenal')).toEqual([]);
    });

    it('an unknown team key, team id or league key is 404', async () => {
      expectError(await h.get('/v1/references/players?team_key=nobody'), 404, 'NOT_FOUND');
      expectError(await h.get('/v1/references/players?team_id=99999'), 404, 'NOT_FOUND');
      expectError(await h.get('/v1/references/players?league_key=no-such-league'), 404, 'NOT_FOUND');
    });
  });

  describe('betting markets by sport', () => {
    it("a sport's markets and those offered for every sport", async () => {
      const generic = idsOf(data.betting_markets.filter((m) => m.sport_id === undefined));
      expect(generic).toHaveLength(7);
      const of = (sport: number) => idsOf(data.betting_markets.filter((m) => m.sport_id === sport || m.sport_id === undefined));
      expect(await h.allIds('/v1/references/betting-markets?sport_id=1')).toEqual(of(SPORT.basketball));
      expect(await h.allIds('/v1/references/betting-markets?sport_id=2')).toEqual(of(SPORT.soccer));
      expect(await h.allIds('/v1/references/betting-markets?sport_id=3')).toEqual(generic);
    });

    it('an unknown sport id is 404', async () => {
      expectError(await h.get('/v1/references/betting-markets?sport_id=999'), 404, 'NOT_FOUND');
    });
  });

  it('a Bearer access token reads the same pages as the API key', async () => {
    const client = await h.t.ctx.clients.create({ name: 'Bearer Co', tier: 'pro', authMethod: 'oauth' });
    // Signed as an OAuth login would: naming the client secret it used, in the current generation.
    const secret = [...client.account.credentials.values()].find((c) => c.kind === 'client_secret');
    const { token } = h.t.ctx.keyring.sign({
      client_id: client.account.id,
      tenant_id: client.account.tenantId,
      tier: 'pro',
      cred: secret?.code ?? '',
      gen: client.account.credentialGeneration,
    });
    const url = '/v1/references/teams?league_key=united-states.nba&page=2';
    const bearer = await h.t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(bearer.statusCode, bearer.body).toBe(200);
    expect(bearer.headers['content-type']).toMatch(/^application\/json/);
    expect(bearer.body).toBe((await h.get(url)).body);
  });
});
