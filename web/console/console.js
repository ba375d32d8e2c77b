// The operator console's page. It never holds the admin token: it posts it once to
// /console/session, then calls /console/api/… (the admin API's own routes, run by the server with
// the token it keeps) with the session cookie, and the session's CSRF token on every change.
import { api, messageOf, setCsrf, signedIn } from '../shared/api.js';
import { fillAudit } from '../shared/audit.js';
import { drawChart, refusalsPerHour, usageSeries } from '../shared/charts.js';
import { $, button, fillTable, sections, when } from '../shared/dom.js';
import { showReview } from './review.js';

const SECTIONS = ['clients', 'client', 'onboard', 'top', 'health', 'audit', 'review'];
const PAGE_SIZE = 20;
let page = 1;
let selected = null;

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const limitsOf = (c) => `${c.effective_limits.per_minute ?? 'no cap'}/min, ${c.effective_limits.per_day ?? 'no cap'}/day${c.rate_limit_per_minute !== null || c.daily_quota !== null ? ' (override)' : ''}`;
const operatorName = (actor) => (actor.type === 'operator' ? `operator (${actor.via})` : `client (${actor.via}${actor.credential_code ? ` ${actor.credential_code}` : ''})`);

function showSignedIn(yes) {
  $('sign-in').hidden = yes;
  $('nav').hidden = !yes;
  $('sign-out').hidden = !yes;
  if (!yes) for (const id of SECTIONS) $(id).hidden = true;
}

async function loadClients() {
  const search = $('search').value.trim();
  const query = new URLSearchParams({ page: String(page), page_size: String(PAGE_SIZE), ...(search ? { search } : {}) });
  const answer = await api('GET', `/console/api/clients?${query}`);
  if (answer.status === 401) return signOutLocally();
  if (answer.status !== 200) return;
  const { results, total_count, total_pages } = answer.json;
  $('client-count').textContent = `Clients: ${total_count}${search ? ` named like "${search}"` : ''} (page ${page} of ${Math.max(1, total_pages)})`;
  $('previous').disabled = page <= 1;
  $('next').disabled = page >= total_pages;
  fillTable(
    $('client-list'),
    ['Name', 'Tier', 'Auth method', 'Limits', 'Disabled', 'Deleted', ''],
    results.map((c) => [c.name, c.tier, c.auth_method, limitsOf(c), c.disabled ? 'disabled' : 'no', c.deleted_at === null ? 'no' : when(c.deleted_at), button(`Open ${c.name}`, () => openClient(c.client_id))]),
  );
}

function openClient(clientId) {
  selected = clientId;
  if (location.hash === '#client') void loadClient();
  else location.hash = '#client';
}

async function loadClient() {
  if (selected === null) {
    location.hash = '#clients';
    return;
  }
  const id = encodeURIComponent(selected);
  const answer = await api('GET', `/console/api/clients/${id}`);
  if (answer.status !== 200) {
    $('client-error').textContent = messageOf(answer);
    return;
  }
  const c = answer.json;
  $('client-title').textContent = `Client: ${c.name}`;
  fillTable(
    $('client-fields'),
    ['Field', 'Value'],
    [
      ['client_id', c.client_id],
      ['tenant_id', c.tenant_id],
      ['Tier', c.tier],
      ['Auth method', c.auth_method],
      ['Limits', limitsOf(c)],
      ['Flow vocabulary', c.flow_vocabulary],
      ['Disabled', c.disabled ? 'yes' : 'no'],
      ['Created', when(c.created_at)],
      ['Deleted', c.deleted_at === null ? 'no' : when(c.deleted_at)],
    ],
  );
  $('change-tier').value = c.tier;
  $('change-auth').value = c.auth_method;
  $('change-minute').value = c.rate_limit_per_minute ?? '';
  $('change-day').value = c.daily_quota ?? '';
  $('change-vocabulary').value = c.flow_vocabulary;
  $('toggle-disabled').textContent = c.disabled ? 'Enable' : 'Disable';
  $('toggle-disabled').className = c.disabled ? '' : 'danger';
  $('toggle-disabled').dataset.disabled = String(c.disabled);
  for (const control of [$('toggle-disabled'), $('reset'), $('offboard')]) control.disabled = c.deleted_at !== null;
  const [usage, hours, keys, secrets, audit] = await Promise.all([
    api('GET', `/console/api/clients/${id}/usage`),
    api('GET', `/console/api/clients/${id}/usage/hours?date=${today()}`),
    api('GET', `/console/api/clients/${id}/api-keys?page_size=100`),
    api('GET', `/console/api/clients/${id}/secrets?page_size=100`),
    api('GET', `/console/api/audit-log?client_id=${id}&page_size=50`),
  ]);
  if (usage.status === 200) {
    const { x, series } = usageSeries(usage.json.days, 'date');
    drawChart($('client-daily-chart'), { title: 'Requests per day (UTC), by group', x, series, limit: usage.json.limits.per_day });
  }
  if (hours.status === 200) {
    const { x, series } = usageSeries(hours.json.hours, 'hour');
    const limit = hours.json.limits.per_minute === null ? null : hours.json.limits.per_minute * 60;
    drawChart($('client-hourly-chart'), { title: `Requests per hour today (UTC), and the 429s`, x, series, limit, refusals: refusalsPerHour(hours.json), hourly: true });
    fillTable($('client-refusals'), ['Minute (UTC)', 'Window', 'Refused'], hours.json.refusals.map((r) => [r.minute.slice(0, 16).replace('T', ' '), r.window, r.refusals]));
  }
  if (keys.status === 200) {
    fillTable(
      $('client-keys'),
      ['Name', 'Preview', 'Created', 'Expires', 'Last used', ''],
      keys.json.results.map((k) => [k.name, k.preview, when(k.created_at), k.expires_at === null ? 'never' : when(k.expires_at), when(k.last_used_at), button(`Delete ${k.name}`, () => deleteCredential('api-keys', k.key_code, `the API key "${k.name}" (${k.preview})`), true)]),
    );
  }
  if (secrets.status === 200) {
    fillTable(
      $('client-secrets'),
      ['Name', 'Preview', 'Created', ''],
      secrets.json.results.map((s) => [s.name, s.secret_preview, when(s.created_at), button(`Delete ${s.name}`, () => deleteCredential('secrets', s.secret_code, `the client secret "${s.name}" (${s.secret_preview})`), true)]),
    );
  }
  if (audit.status === 200) fillAudit($('client-audit'), audit.json.results, operatorName);
}

async function change(method, path, body, confirmation) {
  if (confirmation !== undefined && !window.confirm(confirmation)) return null;
  const answer = await api(method, `/console/api/clients/${encodeURIComponent(selected)}${path}`, body);
  $('client-error').textContent = answer.status < 300 ? '' : messageOf(answer);
  await loadClient();
  return answer;
}

const deleteCredential = (kind, code, what) => change('DELETE', `/${kind}/${encodeURIComponent(code)}`, undefined, `Delete ${what}? It stops working at once.`);

function showCredentials(output, box, answer) {
  output.textContent = `client_id ${answer.client_id}\nAPI key ${answer.api_key}\nclient secret ${answer.client_secret}`;
  box.hidden = false;
}

async function loadTop() {
  const query = new URLSearchParams({ start_date: $('top-start').value, end_date: $('top-end').value, page_size: '50' });
  const answer = await api('GET', `/console/api/usage?${query}`);
  $('top-error').textContent = answer.status === 200 ? '' : messageOf(answer);
  if (answer.status !== 200) return;
  fillTable(
    $('top-list'),
    ['Client', 'Tier', 'Requests', ''],
    answer.json.results.map((t) => [t.name ?? t.client_id, t.tier, t.requests, button(`Open ${t.name ?? t.client_id}`, () => openClient(t.client_id))]),
  );
}

async function loadHealth() {
  const answer = await api('GET', '/console/health');
  const body = answer.json ?? {};
  fillTable($('health-list'), ['Check', 'State'], [
    ['Readiness', answer.status === 200 ? 'ready' : `not ready (${answer.status}): ${messageOf(answer)}`],
    ['Database', body.database ?? (answer.status === 200 ? 'ok' : 'see readiness')],
    ['Redis', body.redis ?? 'not configured (REDIS_URL unset)'],
  ]);
}

async function loadAudit() {
  const answer = await api('GET', '/console/api/audit-log?page_size=50');
  if (answer.status === 200) fillAudit($('audit-list'), answer.json.results, operatorName, true);
}

const loaders = { clients: loadClients, client: loadClient, onboard: async () => {}, top: loadTop, health: loadHealth, audit: loadAudit, review: showReview };
const show = sections(SECTIONS, (current) => {
  if (signedIn()) void loaders[current]?.();
});

function start(session) {
  setCsrf(session.csrf_token);
  showSignedIn(true);
  show();
}

function signOutLocally() {
  setCsrf(null);
  selected = null;
  for (const id of ['onboarded', 'reset-box']) $(id).hidden = true;
  for (const id of ['review-status', 'review-error']) $(id).textContent = '';
  showSignedIn(false);
}

$('token-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const answer = await api('POST', '/console/session', { admin_token: $('admin-token').value });
  e.target.reset();
  if (answer.status !== 201) {
    $('sign-in-error').textContent = messageOf(answer);
    return;
  }
  $('sign-in-error').textContent = '';
  start(answer.json);
});
$('sign-out').addEventListener('click', async () => {
  await api('DELETE', '/console/session');
  signOutLocally();
});
$('search-form').addEventListener('submit', (e) => {
  e.preventDefault();
  page = 1;
  void loadClients();
});
$('previous').addEventListener('click', () => {
  page = Math.max(1, page - 1);
  void loadClients();
});
$('next').addEventListener('click', () => {
  page += 1;
  void loadClients();
});
$('change-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const limit = (input) => (input.value === '' ? null : Number(input.value));
  void change('PATCH', '', {
    tier: $('change-tier').value,
    auth_method: $('change-auth').value,
    rate_limit_per_minute: limit($('change-minute')),
    daily_quota: limit($('change-day')),
    flow_vocabulary: $('change-vocabulary').value,
  });
});
$('toggle-disabled').addEventListener('click', () => {
  const disabled = $('toggle-disabled').dataset.disabled === 'true';
  void change('PATCH', '', { disabled: !disabled }, disabled ? undefined : 'Disable this client? Every call it makes is refused (401) until it is enabled again.');
});
$('reset').addEventListener('click', async () => {
  const answer = await change('POST', '/credentials', undefined, "Reset this client's credentials? Every key, secret and token it has stops working at once.");
  if (answer?.status === 200) showCredentials($('reset-credentials'), $('reset-box'), answer.json);
});
$('offboard').addEventListener('click', () => {
  void change('DELETE', '', undefined, 'Offboard this client? Every credential and token ends at once, and this cannot be undone.');
});
$('onboard-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const answer = await api('POST', '/console/api/clients', { name: $('onboard-name').value, tier: $('onboard-tier').value, auth_method: $('onboard-auth').value });
  if (answer.status !== 201) {
    $('onboard-error').textContent = messageOf(answer);
    return;
  }
  e.target.reset();
  $('onboard-error').textContent = '';
  showCredentials($('onboarded-credentials'), $('onboarded'), answer.json);
});
$('top-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void loadTop();
});
$('health-refresh').addEventListener('click', () => void loadHealth());
$('top-start').value = daysAgo(6);
$('top-end').value = today();

api('GET', '/console/session').then((answer) => (answer.status === 200 ? start(answer.json) : showSignedIn(false)));
