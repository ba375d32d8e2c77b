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
  const width = Math.max(280, container.clientWidth || 600);
  const bars = uPlot.paths.bars({ size: [0.8, 40] });
  const options = {
    title,
    width,
    height: 260,
    scales: { x: { time: true } },
    axes: [{}, { label: 'requests', size: 60 }],
    series: [
      { label: hourly ? 'hour (UTC)' : 'day (UTC)', value: (_u, v) => (v === null ? '—' : new Date(v * 1000).toISOString().slice(0, hourly ? 16 : 10).replace('T', ' ')) },
      ...series.map((s, i) => ({ label: s.label, stroke: COLOURS[i % COLOURS.length], fill: `${COLOURS[i % COLOURS.length]}55`, paths: bars, points: { show: false } })),
      ...(refusals ? [{ label: '429s', stroke: '#a4161a', width: 2, points: { show: true, size: 8, fill: '#a4161a' } }] : []),
      ...(limit === null || limit === undefined ? [] : [{ label: `limit (${limit})`, stroke: '#111', dash: [6, 4], width: 1.5, points: { show: false } }]),
    ],
  };
  const data = [x, ...series.map((s) => s.values), ...(refusals ? [refusals] : []), ...(limit === null || limit === undefined ? [] : [x.map(() => limit)])];
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
