// The client portal's page. It never sees a token: it posts the credential once to
// /portal/session and then calls /portal/api/… (the account routes), /portal/webhooks… (the
// webhook routes) and /portal/try/… (any other /v1 route) with the session cookie the server set.
import { api, messageOf, setCsrf, signedIn } from '../shared/api.js';
import { drawChart, refusalsPerHour, usageSeries } from '../shared/charts.js';
import { $, button, copyButton, el, fillTable, sections, showOnce, when } from '../shared/dom.js';
import { fillAudit } from '../shared/audit.js';
import { setUpExplorer } from './try-it.js';
import { setUpWebhooks } from './webhooks.js';

const SECTIONS = ['usage', 'keys', 'secrets', 'webhooks', 'try', 'audit'];
/** The live figures' refresh: at most every 10 s; each refresh is an `account` call (the minute only). */
const REFRESH_MS = 10_000;
let account = null;

const today = () => new Date().toISOString().slice(0, 10);

function showSignedIn(yes) {
  $('sign-in').hidden = yes;
  $('nav').hidden = !yes;
  $('sign-out').hidden = !yes;
  if (!yes) {
    for (const id of SECTIONS) $(id).hidden = true;
    $('who').textContent = '';
  }
}

async function loadUsage() {
  const answer = await api('GET', '/portal/api/usage');
  if (answer.status === 401) return signOutLocally();
  if (answer.status !== 200) return;
  const usage = answer.json;
  const { minute, day } = usage.current;
  const left = (w) => (w.remaining === null ? 'no cap' : `${w.remaining} left`);
  $('now').textContent = `This minute: ${minute.used ?? 0} used, ${left(minute)}. Today: ${day.used ?? 0} used, ${left(day)}. Tier ${usage.tier}.`;
  $('webhook-day').textContent =
    `Webhook deliveries your endpoints acknowledged today: ${usage.days.at(-1)?.webhook_deliveries ?? 0}, retries and replays included. ` +
    'They are counted beside your requests, in neither the requests nor the charged figures (per day in the table below).';
  const { x, series } = usageSeries(usage.days, 'date');
  drawChart($('daily-chart'), { title: 'Requests per day (UTC), by group', x, series, limit: usage.limits.per_day });
  fillTable(
    $('days'),
    ['Date', 'Requests', 'Charged', ...series.map((s) => s.label), 'Webhook deliveries'],
    usage.days.map((d) => [d.date, d.requests, d.charged, ...series.map((s) => d.by_group[s.label] ?? 0), d.webhook_deliveries]),
  );
}

async function loadHours() {
  const date = $('hours-date').value || today();
  const answer = await api('GET', `/portal/api/usage/hours?date=${encodeURIComponent(date)}`);
  if (answer.status !== 200) return;
  const hours = answer.json;
  const { x, series } = usageSeries(hours.hours, 'hour');
  // An hour can hold at most sixty minutes' worth: the minute's limit is the hourly ceiling.
  const limit = hours.limits.per_minute === null ? null : hours.limits.per_minute * 60;
  drawChart($('hourly-chart'), { title: `Requests per hour on ${hours.date} (UTC), and the 429s`, x, series, limit, refusals: refusalsPerHour(hours), hourly: true });
  fillTable(
    $('hours'),
    ['Hour (UTC)', 'Requests', ...series.map((s) => s.label)],
    hours.hours.map((h) => [h.hour.slice(11, 16), h.requests, ...series.map((s) => h.by_group[s.label] ?? 0)]),
  );
  fillTable(
    $('refusals'),
    ['Minute (UTC)', 'Window exhausted', 'Requests refused'],
    hours.refusals.map((r) => [r.minute.slice(0, 16).replace('T', ' '), r.window === 'minute' ? 'the minute (rate limit)' : 'the day (quota)', r.refusals]),
  );
}

/** The rule that keeps an account reachable, said where it applies: the last credential of an enabled flow stays. */
function explainLastCredential(note, count, flow, what) {
  const applies = account !== null && (account.auth_method === flow || account.auth_method === 'both') && count === 1;
  note.hidden = !applies;
  note.textContent = applies ? `This is your last ${what}. Your account signs in with it (auth_method ${account.auth_method}), so it cannot be deleted: create another first, then delete this one.` : '';
}

async function loadKeys() {
  const answer = await api('GET', '/portal/api/api-keys?page_size=100');
  if (answer.status !== 200) return;
  const keys = answer.json.results;
  explainLastCredential($('key-rule'), keys.filter((k) => k.active).length, 'api_key', 'active API key');
  fillTable(
    $('key-list'),
    ['Name', 'Preview', 'Created', 'Expires', 'Last used', 'Actions'],
    keys.map((k) => [k.name, k.preview, when(k.created_at), k.expires_at === null ? 'never' : `${when(k.expires_at)}${k.active ? '' : ' (expired)'}`, when(k.last_used_at), button(`Delete ${k.name}`, () => deleteKey(k), true)]),
  );
}

async function loadSecrets() {
  const answer = await api('GET', '/portal/api/secrets?page_size=100');
  if (answer.status !== 200) return;
  const secrets = answer.json.results;
  explainLastCredential($('secret-rule'), secrets.length, 'oauth', 'client secret');
  fillTable(
    $('secret-list'),
    ['Name', 'Preview', 'Created', 'Actions'],
    secrets.map((s) => [s.name, s.secret_preview, when(s.created_at), button(`Delete ${s.name}`, () => deleteSecret(s), true)]),
  );
}

async function loadAudit() {
  const answer = await api('GET', '/portal/api/audit-log?page_size=50');
  if (answer.status !== 200) return;
  const who = (actor) => (actor.type === 'operator' ? 'an operator' : `you (${actor.via}${actor.credential_code ? ` ${actor.credential_code}` : ''})`);
  fillAudit($('audit-list'), answer.json.results, who);
}

async function deleteKey(key) {
  if (!window.confirm(`Delete the key "${key.name}" (${key.preview})? Calls made with it are refused at once.`)) return;
  const answer = await api('DELETE', `/portal/api/api-keys/${encodeURIComponent(key.key_code)}`);
  $('keys-error').textContent = answer.status === 204 ? '' : messageOf(answer);
  await Promise.all([loadKeys(), loadAudit()]);
}

async function deleteSecret(secret) {
  if (!window.confirm(`Delete the client secret "${secret.name}" (${secret.secret_preview})? It stops working at once.`)) return;
  const answer = await api('DELETE', `/portal/api/secrets/${encodeURIComponent(secret.secret_code)}`);
  $('secrets-error').textContent = answer.status === 204 ? '' : messageOf(answer);
  await Promise.all([loadSecrets(), loadAudit()]);
}

const explorer = setUpExplorer({ api, form: $('try-form') });
const webhooks = setUpWebhooks({ api, tier: () => account?.tier });
const loaders = { usage: () => Promise.all([loadUsage(), loadHours()]), keys: loadKeys, secrets: loadSecrets, webhooks: webhooks.load, try: () => explorer.load(), audit: loadAudit };
const show = sections(SECTIONS, (current) => {
  if (signedIn()) void loaders[current]?.();
});

async function start(session) {
  setCsrf(session.csrf_token);
  const config = await api('GET', '/portal/api/config');
  account = config.status === 200 ? config.json : null;
  $('who').textContent = account === null ? '' : `Signed in as ${account.name ?? session.client_id} (tier ${account.tier})`;
  showSignedIn(true);
  show();
}

function signOutLocally() {
  setCsrf(null);
  account = null;
  for (const id of ['created', 'created-secret-box']) $(id).hidden = true;
  $('created-key').textContent = '';
  $('created-secret').textContent = '';
  webhooks.forget();
  showSignedIn(false);
}

async function signIn(event, body) {
  event.preventDefault();
  const answer = await api('POST', '/portal/session', body);
  event.target.reset();
  if (answer.status !== 201) {
    $('sign-in-error').textContent = messageOf(answer);
    return;
  }
  $('sign-in-error').textContent = '';
  await start(answer.json);
}

$('key-form').addEventListener('submit', (e) => signIn(e, { api_key: $('api-key').value }));
$('oauth-form').addEventListener('submit', (e) => signIn(e, { client_id: $('client-id').value, client_secret: $('client-secret').value }));
$('sign-out').addEventListener('click', async () => {
  await api('DELETE', '/portal/session');
  signOutLocally();
});
$('hours-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void loadHours();
});
/** A create form: posts, then shows the new credential once and focuses its copy button. */
function creates(form, { url, body, error, output, box, status, copy, plaintext, reload }) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const answer = await api('POST', url, body());
    if (answer.status !== 201) {
      error.textContent = messageOf(answer);
      return;
    }
    form.reset();
    error.textContent = '';
    showOnce({ box, output, copy, status }, plaintext(answer.json));
    await Promise.all([reload(), loadAudit()]);
  });
}

creates($('new-key'), {
  url: '/portal/api/api-keys',
  body: () => ({ name: $('key-name').value, ...($('key-expiry').value ? { expires_at: `${$('key-expiry').value}T00:00:00Z` } : {}) }),
  error: $('keys-error'),
  output: $('created-key'),
  box: $('created'),
  status: $('copy-status'),
  copy: $('copy'),
  plaintext: (created) => created.api_key,
  reload: loadKeys,
});
creates($('new-secret'), {
  url: '/portal/api/secret',
  body: () => ({ name: $('secret-name').value }),
  error: $('secrets-error'),
  output: $('created-secret'),
  box: $('created-secret-box'),
  status: $('copy-secret-status'),
  copy: $('copy-secret'),
  plaintext: (created) => created.client_secret,
  reload: loadSecrets,
});
copyButton($('copy'), $('created-key'), $('copy-status'));
copyButton($('copy-secret'), $('created-secret'), $('copy-secret-status'));
$('hours-date').value = today();

setInterval(() => {
  if (!signedIn() || document.visibilityState !== 'visible' || $('usage').hidden) return;
  void loadUsage();
  if ($('hours-date').value === today()) void loadHours();
}, REFRESH_MS);

// A page reloaded within a session carries on with it.
api('GET', '/portal/session').then((answer) => (answer.status === 200 ? start(answer.json) : showSignedIn(false)));
