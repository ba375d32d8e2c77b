// The review queue (docs/operations.md#loading-real-data): the names of imported files that no rule
// matched, with the rows waiting on them. The operator binds each to a record picked among its
// scope's most alike, or makes a new record of it; the waiting rows are imported at once. The names
// come from the files: they are set as text only (dom.js), never as HTML.
import { api, messageOf } from '../shared/api.js';
import { $, el, fillTable } from '../shared/dom.js';

const scopeOf = (u) => `${u.entity_type === 'team' ? 'league' : 'sport'} ${u.scope_id}`;
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The scope's records most alike, best first, as the choices of a list labelled by the name. */
const picker = (u) =>
  el(
    'select',
    { 'aria-label': `Record for ${u.name}` },
    u.candidates.map((c) => el('option', { value: String(c.entity_id), text: `${c.name} (#${c.entity_id}) — ${c.score.toFixed(2)}` })),
  );

/** Binds the name (body: entity_id) or makes its record (create: true), then says what the waiting rows wrote and lists the queue again. */
async function resolve(u, body, done) {
  for (const control of $('review-list').querySelectorAll('button, select')) control.disabled = true;
  const answer = await api('POST', '/console/api/mapping/aliases', { source: u.source, name: u.name, entity_type: u.entity_type, ...body });
  $('review-error').textContent = answer.status === 200 ? '' : messageOf(answer);
  if (answer.status === 200) {
    const { entity_id, imported, queued } = answer.json;
    $('review-status').textContent =
      `"${u.name}" ${done(entity_id)}. Imported from the rows that waited: ${plural(imported.events, 'event')}, ${plural(imported.odds, 'price')}, ` +
      `${plural(imported.results, 'result')}; ${plural(queued, 'row')} of ${u.source} still waiting.`;
  }
  await loadReview();
}

/** Bind (to the record chosen) and New (record), each named for a screen reader with the name it resolves. */
function actions(u, choice) {
  const bind = () => {
    const chosen = u.candidates.find((c) => String(c.entity_id) === choice.value);
    if (chosen) void resolve(u, { entity_id: chosen.entity_id }, () => `now stands for ${chosen.name} (#${chosen.entity_id})`);
  };
  const create = () => {
    if (window.confirm(`Make a new ${u.entity_type} named "${u.name}" in ${scopeOf(u)}?`)) void resolve(u, { create: true }, (id) => `is a new ${u.entity_type} (#${id})`);
  };
  return el('div', { class: 'actions' }, [
    el('button', { type: 'button', text: 'Bind', 'aria-label': `Bind ${u.name}`, disabled: u.candidates.length === 0, onclick: bind }),
    el('button', { type: 'button', class: 'secondary', text: `New ${u.entity_type}`, 'aria-label': `New ${u.entity_type} of ${u.name}`, onclick: create }),
  ]);
}

/** The queue and the aliases, as the admin API lists them now. */
export async function loadReview() {
  const [queue, aliases] = await Promise.all([api('GET', '/console/api/mapping/unmatched'), api('GET', '/console/api/mapping/aliases')]);
  if (queue.status !== 200) {
    $('review-error').textContent = messageOf(queue);
    return;
  }
  const names = queue.json.data;
  $('review-count').textContent = names.length === 0 ? 'Nothing waits: every name imported is matched.' : `Names waiting: ${names.length}`;
  fillTable(
    $('review-list'),
    ['Source', 'Of', 'Name', 'Rows waiting', 'Candidates (similarity)', ''],
    names.map((u) => {
      const choice = picker(u);
      return [u.source, `${u.entity_type} in ${scopeOf(u)}`, el('span', { class: 'name', text: u.name }), u.rows, u.candidates.length === 0 ? 'none in its scope' : choice, actions(u, choice)];
    }),
  );
  if (aliases.status === 200) {
    fillTable(
      $('alias-list'),
      ['Source', 'Of', 'Name', 'Record'],
      aliases.json.data.map((a) => [a.source, a.scope_id === 0 ? a.entity_type : `${a.entity_type} in ${scopeOf(a)}`, el('span', { class: 'name', text: a.name }), `#${a.entity_id}`]),
    );
  }
}

/** The page as it opens: last resolution's words cleared. */
export function showReview() {
  $('review-status').textContent = '';
  $('review-error').textContent = '';
  return loadReview();
}
