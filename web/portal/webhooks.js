// The portal's Webhooks section. Its calls go to /portal/webhooks… and /portal/webhook-event-types,
// which the server runs as /v1/webhooks… and /v1/webhook-event-types with the session's token: the
// API's own answers, tier rule and limits. A signing secret is shown once, in the answer that made it.
import { messageOf } from '../shared/api.js';
import { $, button, copyButton, el, fillTable, pager, showOnce, when, whenExactly } from '../shared/dom.js';

const PAGE_SIZE = 20;

/** The filter fields of the create form: the id lists, by the API's names, and what the list of endpoints calls them. */
const ID_FILTERS = [
  ['webhook-sport-ids', 'sport_ids', 'sports'],
  ['webhook-league-ids', 'league_ids', 'leagues'],
  ['webhook-event-ids', 'event_ids', 'events'],
  ['webhook-market-ids', 'betting_market_ids', 'betting markets'],
  ['webhook-operator-ids', 'operator_ids', 'operators'],
];

/** The kinds of events (`event_kinds`), in words. */
const KINDS = { matchup: 'matchups', competition: 'competitions' };

const path = (endpoint, rest = '') => `/portal/webhooks/${encodeURIComponent(endpoint.id)}${rest}`;

/** Why an endpoint is disabled, and since when, in words. */
export function disabledWhy(endpoint) {
  const since = when(endpoint.disabled_at) ?? 'a time not recorded';
  const resume = 'Enabling it sends the messages already waiting, in order, from where sending stopped.';
  if (endpoint.disabled_reason === 'gone') return `Disabled since ${since}: it answered 410 Gone, which says it wants no more messages. ${resume}`;
  if (endpoint.disabled_reason === 'retries_exhausted') return `Disabled since ${since}: a message failed every retry. ${resume}`;
  return `Disabled by you since ${since}: nothing is sent to it, and no new message is made for it. ${resume}`;
}

function stateOf(endpoint) {
  if (!endpoint.enabled) return disabledWhy(endpoint);
  const previous = endpoint.previous_secret_expires_at;
  return previous === null ? 'Enabled' : `Enabled. The secret before the latest rotation also signs until ${when(previous)}.`;
}

function deliveryState(delivery) {
  if (delivery.state === 'delivered') return `delivered ${when(delivery.delivered_at)}`;
  if (delivery.state === 'test') return 'test message (never retried)';
  return delivery.next_attempt_at === null ? 'failed every retry: waits for the endpoint to be enabled' : 'waiting to be sent';
}

/** Each attempt on a line of its own: when, the status (or why none came), the latency and the answer's first bytes. */
function attemptsOf(attempts) {
  if (attempts.length === 0) return 'none yet';
  return el(
    'ol',
    { class: 'attempts' },
    attempts.map((a) =>
      el('li', {}, [
        el('span', { text: `${whenExactly(a.attempted_at)}: ${a.status_code ?? 'no answer'} in ${a.latency_ms} ms${a.error === null ? '' : ` (${a.error})`}` }),
        ...(a.response_excerpt === '' ? [] : [el('code', { text: a.response_excerpt })]),
      ]),
    ),
  );
}

/** An endpoint's filters in words: the kinds of events first (absent: matchups only, as the API reads it), then each list given. */
function filtersIn(filters) {
  const kinds = (filters.event_kinds ?? ['matchup']).map((kind) => KINDS[kind] ?? kind);
  const parts = [`Of ${kinds.join(' and ')}`];
  for (const [, name, words] of ID_FILTERS) if (filters[name] !== undefined) parts.push(`${words} ${filters[name].join(', ')}`);
  if (filters.min_edge !== undefined) parts.push(`edges from ${Math.round(filters.min_edge * 10_000) / 100}%`);
  return parts.join('; ');
}

/** The ids a filter field lists (commas or spaces between), or an error naming the field. */
function idsOf(input, label) {
  const words = input.value.split(/[\s,]+/).filter((w) => w !== '');
  const ids = words.map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 1)) throw new Error(`${label}: whole numbers above 0 only, separated by commas.`);
  return [...new Set(ids)];
}

/** The create form as a POST /v1/webhooks body. */
function newEndpointBody() {
  const eventTypes = [...$('webhook-types').querySelectorAll('input:checked')].map((input) => input.value);
  if (eventTypes.length === 0) throw new Error('Choose at least one event type.');
  const filters = {};
  for (const [id, name] of ID_FILTERS) {
    const ids = idsOf($(id), $(id).labels[0]?.textContent ?? name);
    if (ids.length > 0) filters[name] = ids;
  }
  const kinds = [...$('webhook-kinds').querySelectorAll('input:checked')].map((input) => input.value);
  if (kinds.length === 0) throw new Error('Choose at least one kind of event: matchups, competitions or both.');
  // Matchups alone is what an endpoint without event_kinds is told: the filter is sent only when it asks for more.
  if (kinds.length > 1 || kinds[0] !== 'matchup') filters.event_kinds = kinds;
  const minEdge = $('webhook-min-edge').value;
  if (minEdge !== '') filters.min_edge = Number(minEdge) / 100;
  const description = $('webhook-description').value;
  return { url: $('webhook-url').value, event_types: eventTypes, filters, ...(description === '' ? {} : { description }) };
}

export function setUpWebhooks({ api, tier }) {
  let types = [];
  /** The endpoint whose deliveries are shown, or null. */
  let shown = null;
  const error = $('webhooks-error');
  const secretBox = { box: $('webhook-secret-box'), output: $('webhook-secret'), copy: $('copy-webhook-secret'), status: $('copy-webhook-secret-status') };
  const pages = pager({ newer: $('deliveries-newer'), older: $('deliveries-older'), label: $('deliveries-page') }, (page) => loadDeliveries(page));
  let page = 1;

  async function load() {
    const answer = await api('GET', '/portal/webhooks?page_size=100');
    // The API's tier rule decides: a tier without webhooks is refused (403) there.
    const refused = answer.status === 403;
    $('webhooks-tier').hidden = !refused;
    $('webhooks-tier').textContent = refused ? `Webhooks are for the pro tier and up; this account is on the ${tier() ?? 'free'} tier.` : '';
    $('webhooks-body').hidden = refused;
    if (answer.status !== 200) {
      if (!refused) error.textContent = messageOf(answer);
      return;
    }
    if (types.length === 0) await loadTypes();
    const endpoints = answer.json.results;
    fillTable(
      $('webhook-list'),
      ['URL', 'Event types', 'Filters', 'State', 'Actions'],
      endpoints.map((e) => [
        el('span', { class: 'name', text: e.description === '' ? e.url : `${e.url} (${e.description})` }),
        e.event_types.join(', '),
        filtersIn(e.filters),
        stateOf(e),
        el('div', { class: 'actions' }, [
          button(e.enabled ? 'Disable' : 'Enable', () => setEnabled(e, !e.enabled)),
          button('Send a test', () => sendTest(e)),
          button('Rotate the secret', () => rotate(e)),
          button('Deliveries', () => showDeliveries(e)),
          button('Delete', () => remove(e), true),
        ]),
      ]),
    );
    shown = shown === null ? null : (endpoints.find((e) => e.id === shown.id) ?? null);
    $('deliveries-box').hidden = shown === null;
  }

  async function loadTypes() {
    const answer = await api('GET', '/portal/webhook-event-types');
    if (answer.status !== 200) return;
    types = answer.json.results.filter((t) => t.subscribable);
    $('webhook-types').replaceChildren(
      el('legend', { text: 'Event types (at least one)' }),
      ...types.map((t, i) =>
        el('div', { class: 'check' }, [
          el('input', { id: `webhook-type-${i}`, type: 'checkbox', name: 'event_types', value: t.type }),
          el('label', { for: `webhook-type-${i}`, text: `${t.type}: ${t.description}` }),
        ]),
      ),
    );
  }

  /** Shows what a call answered when it is not `expected`; true when it is. */
  function succeeded(answer, expected) {
    error.textContent = answer.status === expected ? '' : messageOf(answer);
    return answer.status === expected;
  }

  async function setEnabled(endpoint, enabled) {
    succeeded(await api('PATCH', path(endpoint), { enabled }), 200);
    await load();
  }

  async function sendTest(endpoint) {
    const status = $('webhook-test-status');
    const excerpt = $('webhook-test-answer');
    status.textContent = `Sending a test message to ${endpoint.url}…`;
    excerpt.hidden = true;
    const answer = await api('POST', path(endpoint, '/test'));
    if (!succeeded(answer, 200)) {
      status.textContent = '';
      return;
    }
    const r = answer.json;
    const outcome = r.status_code === null ? `no answer (${r.error})` : `${r.status_code}, ${r.success ? 'received' : 'not a 2xx, so not received'}`;
    status.textContent = `Test message to ${endpoint.url}: ${outcome}, after ${r.latency_ms} ms.`;
    excerpt.textContent = r.response_excerpt;
    excerpt.hidden = r.response_excerpt === '';
  }

  async function rotate(endpoint) {
    if (!window.confirm(`Make a new signing secret for ${endpoint.url}? The current one keeps signing beside it for 24 hours.`)) return;
    const answer = await api('POST', path(endpoint, '/rotate-secret'));
    if (!succeeded(answer, 200)) return;
    $('webhook-secret-note').textContent =
      `The new signing secret of ${endpoint.url}, shown this once: copy it now. The old one keeps signing beside it until ` +
      `${when(answer.json.previous_secret_expires_at)} (24 hours): every message carries both signatures until then, so give your receiver the new one before.`;
    showOnce(secretBox, answer.json.secret);
    await load();
  }

  async function remove(endpoint) {
    if (!window.confirm(`Delete the endpoint ${endpoint.url}? Nothing more is sent to it.`)) return;
    if (!succeeded(await api('DELETE', path(endpoint)), 204)) return;
    if (shown?.id === endpoint.id) shown = null;
    await load();
  }

  async function showDeliveries(endpoint) {
    shown = endpoint;
    $('deliveries-box').hidden = false;
    $('deliveries-title').textContent = `Deliveries to ${endpoint.url}`;
    $('deliveries-status').textContent = '';
    await loadDeliveries(1);
  }

  async function loadDeliveries(wanted) {
    if (shown === null) return;
    const answer = await api('GET', `${path(shown, '/deliveries')}?page=${wanted}&page_size=${PAGE_SIZE}`);
    if (answer.status !== 200) {
      $('deliveries-status').textContent = messageOf(answer);
      return;
    }
    page = answer.json.page;
    pages.show(answer.json);
    fillTable(
      $('delivery-list'),
      ['Sequence', 'Type', 'State', 'Attempts', 'Next attempt', 'Actions'],
      answer.json.results.map((d) => [d.sequence ?? 'test', d.type, deliveryState(d), attemptsOf(d.attempts), whenExactly(d.next_attempt_at), d.state === 'test' ? null : button('Retry now', () => retry(d))]),
    );
  }

  async function retry(delivery) {
    const answer = await api('POST', path(shown, `/deliveries/${encodeURIComponent(delivery.id)}/retry`));
    const a = answer.json;
    $('deliveries-status').textContent =
      answer.status === 200 ? `Sequence ${delivery.sequence} sent again: ${a.status_code ?? `no answer (${a.error})`} after ${a.latency_ms} ms.` : messageOf(answer);
    await Promise.all([load(), loadDeliveries(page)]);
  }

  $('replay-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (shown === null) return;
    const answer = await api('POST', path(shown, '/replay'), { from_sequence: Number($('replay-from').value) });
    const r = answer.json;
    $('deliveries-status').textContent =
      answer.status !== 200
        ? messageOf(answer)
        : r.replayed === 0
          ? 'No delivered message from that sequence on: nothing to send again.'
          : r.replayed === 1
            ? `1 delivered message (sequence ${r.first_sequence}) will be sent again, with its webhook-id.`
            : `${r.replayed} delivered messages (sequence ${r.first_sequence} to ${r.last_sequence}) will be sent again, in order, with their webhook-ids.`;
    await loadDeliveries(page);
  });

  $('new-webhook').addEventListener('submit', async (event) => {
    event.preventDefault();
    let body;
    try {
      body = newEndpointBody();
    } catch (problem) {
      error.textContent = problem.message;
      return;
    }
    const answer = await api('POST', '/portal/webhooks', body);
    if (!succeeded(answer, 201)) return;
    event.target.reset();
    $('webhook-secret-note').textContent = `The signing secret of ${answer.json.url}, shown this once: copy it now. Your receiver checks every message with it.`;
    showOnce(secretBox, answer.json.secret);
    await load();
  });
  copyButton(secretBox.copy, secretBox.output, secretBox.status);

  /** Signed out: no secret left on the page. */
  function forget() {
    secretBox.box.hidden = true;
    secretBox.output.textContent = '';
    shown = null;
  }

  return { load, forget };
}
