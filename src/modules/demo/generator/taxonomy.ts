import type { Dataset } from '../../import/index.js';

/**
 * The flow tag taxonomy and the subnational regions of the demo. Fixed, like the catalogue: no
 * randomness, so the rest of the dataset is what it was before they existed. A flow's tags follow
 * from what it already is (its type, side and focus), so tagging costs one pass over the flows.
 */

type Records<A extends keyof Dataset> = NonNullable<Dataset[A]>;
type Flow = Records<'flows'>[number];

const DIMENSIONS = {
  situation: { id: 1, name: 'Situation' },
  bet: { id: 2, name: 'Bet' },
  angle: { id: 3, name: 'Angle' },
} as const;

const TAG = {
  venue: 101,
  homeGames: 102,
  roadGames: 103,
  form: 110,
  last5: 111,
  last10: 112,
  side: 201,
  over: 202,
  under: 203,
  betSide: 210,
  home: 211,
  away: 212,
  focus: 220,
  team: 221,
  player: 222,
  event: 223,
  calendar: 301,
  weekday: 302,
  season: 310,
  seasonRecord: 311,
} as const;

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** [id, key, name, dimension, parent, options]: parents before their children. */
type TagRow = [id: number, key: string, name: string, dimension: keyof typeof DIMENSIONS, parent: number | null, extra?: Partial<Records<'tag_types'>[number]>];
const TAGS: readonly TagRow[] = [
  [TAG.venue, 'venue', 'Venue', 'situation', null],
  [TAG.homeGames, 'home', 'Home', 'situation', TAG.venue],
  [TAG.roadGames, 'away', 'Away', 'situation', TAG.venue],
  // Recent form is a fact flow's window: its values are the windows the trends count.
  [TAG.form, 'recent-form', 'Recent Form', 'situation', null, { flow_types: ['fact'] }],
  [TAG.last5, 'last-5', 'Last 5 Games', 'situation', TAG.form, { is_value: true }],
  [TAG.last10, 'last-10', 'Last 10 Games', 'situation', TAG.form, { is_value: true }],
  [TAG.side, 'total', 'Total', 'bet', null],
  [TAG.over, 'over', 'Over', 'bet', TAG.side],
  [TAG.under, 'under', 'Under', 'bet', TAG.side],
  // "Home" again, under another parent: the breadcrumbs tell the two apart.
  [TAG.betSide, 'side', 'Side', 'bet', null],
  [TAG.home, 'home', 'Home', 'bet', TAG.betSide],
  [TAG.away, 'away', 'Away', 'bet', TAG.betSide],
  [TAG.focus, 'focus', 'Focus', 'bet', null],
  [TAG.team, 'team', 'Team', 'bet', TAG.focus],
  [TAG.player, 'player', 'Player', 'bet', TAG.focus],
  [TAG.event, 'event', 'Event', 'bet', TAG.focus],
  [TAG.calendar, 'calendar', 'Calendar', 'angle', null, { flow_types: ['fun'] }],
  [TAG.weekday, 'weekday', 'Weekday', 'angle', TAG.calendar, { flow_types: ['fun'] }],
  ...WEEKDAYS.map((day, i): TagRow => [320 + i, day.toLowerCase(), day, 'angle', TAG.weekday, { is_value: true, flow_types: ['fun'] }]),
  [TAG.season, 'season', 'Season', 'angle', null, { flow_types: ['plain'] }],
  [TAG.seasonRecord, 'season-record', 'Season Record', 'angle', TAG.season, { flow_types: ['plain'] }],
];

export function tagDimensions(): Records<'tag_dimensions'> {
  return Object.entries(DIMENSIONS).map(([key, { id, name }]) => ({ id, key, name }));
}

export function tagTypes(): Records<'tag_types'> {
  return TAGS.map(([id, key, name, dimension, parent, extra]) => ({ id, key, name, dimension_id: DIMENSIONS[dimension].id, parent_id: parent, ...extra }));
}

/** A flow with the tags its type, side and focus give it. */
export function withTags(flow: Flow): Flow {
  const tags: number[] = [];
  if (flow.focus_entity_type === 'team') tags.push(TAG.team, flow.id % 2 === 0 ? TAG.homeGames : TAG.roadGames);
  else tags.push(flow.focus_entity_type === 'player' ? TAG.player : TAG.event);
  if (flow.split === 'over') tags.push(TAG.over);
  if (flow.split === 'under') tags.push(TAG.under);
  if (flow.flow_type === 'fact') tags.push(TAG.form);
  if (flow.flow_type === 'fun') tags.push(TAG.weekday);
  if (flow.flow_type === 'plain') tags.push(TAG.seasonRecord);
  return { ...flow, tag_type_ids: tags };
}

/** The US states (and DC) that license sports betting, with their USPS codes. */
const US_SPORTS_BETTING_STATES: ReadonlyArray<[code: string, name: string]> = [
  ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CO', 'Colorado'], ['CT', 'Connecticut'], ['DE', 'Delaware'],
  ['DC', 'District of Columbia'], ['FL', 'Florida'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'],
  ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'],
  ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'],
  ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NY', 'New York'],
  ['NC', 'North Carolina'], ['OH', 'Ohio'], ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'],
  ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['VT', 'Vermont'], ['VA', 'Virginia'], ['WA', 'Washington'],
  ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
];

/** Canada's provinces with a licensed market. */
const CANADA_PROVINCES: ReadonlyArray<[code: string, name: string]> = [['ON', 'Ontario'], ['AB', 'Alberta']];

export function subnationalRegions(countries: Records<'countries'>): Records<'subnational_regions'> {
  const idOf = (key: string) => countries.find((c) => c.key === key)?.id;
  const regions = [
    ...US_SPORTS_BETTING_STATES.map(([code, name]) => ({ code, name, country_id: idOf('united-states') })),
    ...CANADA_PROVINCES.map(([code, name]) => ({ code, name, country_id: idOf('canada') })),
  ];
  return regions.flatMap(({ code, name, country_id }, i) =>
    country_id === undefined ? [] : [{ id: i + 1, key: name.toLowerCase().replaceAll(' ', '-'), name, code, country_id }],
  );
}
