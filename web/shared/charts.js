// The usage charts (uPlot, bundled from npm at build time). Each chart is drawn from the same
// arrays its table of numbers is filled from, and keeps them in data-values, so that what the
// chart shows can be read back and compared with the API's answer.
import uPlot from 'uplot';

// Distinguishable with colour blindness (Okabe–Ito) and at least 3:1 against white.
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#8a6d00', '#56667a'];
const charts = new Map();

/**
 * Draws (or redraws) a chart in `container`: one bar series per group over the x values (epoch
 * seconds), an optional dashed limit line, an optional series of 429s.
 */
export function drawChart(container, { title, x, series, limit, refusals, hourly }) {
  const values = { x, series: Object.fromEntries(series.map((s) => [s.label, s.values])), ...(refusals ? { refusals } : {}), limit };
  container.dataset.values = JSON.stringify(values);
  // The limit is drawn when the usage comes near it (a tenth of it); otherwise it would flatten every bar
  // to nothing, and the title says how far below it the peak is.
  const peak = Math.max(0, ...x.map((_t, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0)));
  const near = limit !== null && limit !== undefined && peak >= limit / 10;
  const note = limit === null || limit === undefined ? ' (no cap)' : near ? '' : ` — limit ${limit.toLocaleString('en')}, peak ${Math.round((peak / limit) * 1000) / 10}% of it`;
  // Stacked bars: each group's bar stands on the ones before it, drawn from the top down so that
  // each shows as its own band; the legend shows the group's own count.
  const stacked = series
    .map((s, i) => ({ label: s.label, raw: s.values, colour: COLOURS[i % COLOURS.length], values: x.map((_t, k) => series.slice(0, i + 1).reduce((sum, t) => sum + (t.values[k] ?? 0), 0)) }))
    .reverse();
  const width = Math.max(280, container.clientWidth || 600);
  const bars = uPlot.paths.bars({ size: [0.8, 40] });
  const options = {
    title: `${title}${note}`,
    width,
    height: 260,
    // The API counts in UTC days and hours: the axis says UTC whatever the reader's time zone.
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
    axes: [{}, { label: 'requests', size: 60 }],
    series: [
      { label: hourly ? 'hour (UTC)' : 'day (UTC)', value: (_u, v) => (v === null ? '—' : new Date(v * 1000).toISOString().slice(0, hourly ? 16 : 10).replace('T', ' ')) },
      ...stacked.map(({ label, raw, colour }) => ({ label, stroke: colour, fill: colour, paths: bars, points: { show: false }, value: (_u, _v, _s, i) => (i === null ? '--' : raw[i]) })),
      ...(refusals ? [{ label: '429s', stroke: '#a4161a', width: 0, paths: () => null, points: { show: true, size: 10, fill: '#a4161a' } }] : []),
      ...(near ? [{ label: `limit (${limit})`, stroke: '#111', dash: [6, 4], width: 1.5, points: { show: false } }] : []),
    ],
  };
  // An hour without 429s has no point, rather than a row of them along zero.
  const data = [x, ...stacked.map((s) => s.values), ...(refusals ? [refusals.map((n) => (n > 0 ? n : null))] : []), ...(near ? [x.map(() => limit)] : [])];
  charts.get(container)?.destroy();
  container.replaceChildren();
  charts.set(container, new uPlot(options, data, container));
}

window.addEventListener('resize', () => {
  for (const [container, chart] of charts) chart.setSize({ width: Math.max(280, container.clientWidth || 600), height: 260 });
});

/** The series of a usage answer's days (GET …/usage) or hours (GET …/usage/hours), one per group. */
export function usageSeries(entries, at) {
  const groups = Object.keys(entries[0]?.by_group ?? {});
  return {
    x: entries.map((e) => Date.parse(e[at]) / 1000),
    series: groups.map((group) => ({ label: group, values: entries.map((e) => e.by_group[group] ?? 0) })),
  };
}

/** The 429s of an hours answer, per hour of its day. */
export function refusalsPerHour(hours) {
  const perHour = hours.hours.map(() => 0);
  for (const r of hours.refusals) {
    const index = new Date(r.minute).getUTCHours();
    perHour[index] = (perHour[index] ?? 0) + r.refusals;
  }
  return perHour;
}
