import { type DialectName } from '../../src/platform/db/database.js';
import { DIALECTS } from './app.js';

/**
 * The moment the demo-dependent suites make the demo at, on their app's clock: the demo counts its
 * days from its clock, and a suite made on the day it runs would pass or fail with the calendar (a
 * slate with or without a game that has alternate lines).
 */
export const DEMO_NOW = Date.parse('2031-05-06T15:30:00Z');

/**
 * Moments across a year the demo-dependent suites also run at, each a day whose calendar is
 * unusual for the demo's 7 days back and 14 ahead: a weekday and a weekend day, the daylight-saving
 * changes of Europe/London and America/New_York both ways (half an hour before the change, so that
 * the demo's first day holds it), 29 February, and 31 December half an hour before 1 January.
 */
export const DEMO_MOMENTS: ReadonlyArray<{ name: string; at: string }> = [
  { name: 'a Wednesday', at: '2027-06-16T08:00:00Z' },
  { name: 'a Saturday evening', at: '2027-06-19T21:00:00Z' },
  { name: 'Europe/London springs forward', at: '2027-03-28T00:30:00Z' },
  { name: 'Europe/London falls back', at: '2027-10-31T00:30:00Z' },
  { name: 'America/New_York springs forward', at: '2027-03-14T06:30:00Z' },
  { name: 'America/New_York falls back', at: '2027-11-07T05:30:00Z' },
  { name: '29 February', at: '2028-02-29T12:00:00Z' },
  { name: '31 December into 1 January', at: '2027-12-31T23:30:00Z' },
];

export interface DemoCase {
  /** The dialect and the moment, for the suite's name. */
  name: string;
  dialect: DialectName;
  /** The app's clock when the demo is made (epoch ms). */
  now: number;
  /** The demo's scale: the suite's own at DEMO_NOW, at most MOMENT_SCALE at the other moments. */
  scale: number;
}

/** The scale of the runs across the year: 2 % of the demo's odds and flows; every league keeps its schedule. */
export const MOMENT_SCALE = 0.02;

/**
 * The runs of a demo-dependent suite made at `scale`, for `describe.each(demoCases(scale))('…
 * ($name)', …)`: at DEMO_NOW on each database, and at each of DEMO_MOMENTS on SQLite at a small
 * scale (the calendar is the generator's and the app's, the same on both databases; SQLite and
 * the small scale keep the runs quick).
 */
export function demoCases(scale: number): DemoCase[] {
  return [
    ...DIALECTS.map((dialect) => ({ name: dialect, dialect, now: DEMO_NOW, scale })),
    ...DEMO_MOMENTS.map(({ name, at }) => ({ name: `sqlite, ${name}, ${at}`, dialect: 'sqlite' as const, now: Date.parse(at), scale: Math.min(scale, MOMENT_SCALE) })),
  ];
}

/**
 * Each of DEMO_MOMENTS at `scale`, for a suite that makes the demo without a database (the
 * generator is pure, so no dialect): `describe.each([…its own moments, ...generatorMoments(scale)])`.
 */
export function generatorMoments(scale: number): Array<{ name: string; now: number; scale: number }> {
  return DEMO_MOMENTS.map(({ name, at }) => ({ name: `${name}, ${at}`, now: Date.parse(at), scale }));
}
