// The client portal's page. It never sees a token: it posts the credential once to
// /portal/session and then calls /portal/api/… with the session cookie the server set, sending
// the session's CSRF token on every call that changes something.
'use strict';

const $ = (id) => document.getElementById(id);
let csrf = null;

async function api(method, path, body) {
  const headers = {};
  if (method !== 'GET') headers['x-csrf-token'] = csrf ?? '';
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const json = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, json };
}

const cell = (text) => {
  const td = document.createElement('td');
  td.textContent = text === null || text === undefined ? '—' : String(text);
  return td;
};
const row = (cells) => {
  const tr = document.createElement('tr');
  for (const c of cells) tr.append(c instanceof Node ? c : cell(c));
  return tr;
};

function show(signedIn) {
  $('sign-in').hidden = signedIn;
  for (const id of ['usage', 'keys', 'secrets', 'audit', 'sign-out']) $(id).hidden = !signedIn;
}

async function loadUsage() {
  const { status, json } = await api('GET', '/portal/api/usage');
  if (status === 401) return show(false);
  if (status !== 200) return;
  const { minute, day } = json.current;
  $('now').textContent = `This minute: ${minute.used ?? 0} used, ${minute.remaining ?? 'no cap'} left. Today: ${day.used ?? 0} used, ${day.remaining ?? 'no cap'} left (tier ${json.tier}).`;
  const groups = [...new Set(json.days.flatMap((d) => Object.keys(d.by_group)))].sort();
  const head = $('days').tHead;
  head.replaceChildren(row(['Date', 'Requests', 'Charged', ...groups].map((h) => Object.assign(document.createElement('th'), { textContent: h }))));
  $('days').tBodies[0].replaceChildren(...json.days.map((d) => row([d.date, d.requests, d.charged, ...groups.map((g) => d.by_group[g] ?? 0)])));
}

async function loadKeys() {
  const { status, json } = await api('GET', '/portal/api/api-keys?page_size=100');
  if (status !== 200) return;
  $('key-list').tBodies[0].replaceChildren(
    ...json.results.map((k) => {
      const del = document.createElement('button');
      del.type = 'button';
      del.className = 'danger';
      del.textContent = `Delete ${k.name}`;
      del.addEventListener('click', () => deleteKey(k));
      const actions = document.createElement('td');
      actions.append(del);
      return row([k.name, k.preview, k.created_at, k.expires_at, k.last_used_at, actions]);
    }),
  );
}

async function loadSecrets() {
  const { status, json } = await api('GET', '/portal/api/secrets?page_size=100');
  if (status !== 200) return;
  $('secret-list').tBodies[0].replaceChildren(
    ...json.results.map((secret) => {
      const del = document.createElement('button');
      del.type = 'button';
      del.className = 'danger';
      del.textContent = `Delete ${secret.name}`;
      del.addEventListener('click', () => deleteSecret(secret));
      const actions = document.createElement('td');
      actions.append(del);
      return row([secret.name, secret.secret_preview, secret.created_at, actions]);
    }),
  );
}

async function deleteSecret(secret) {
  if (!window.confirm(`Delete the client secret "${secret.name}"? It stops working at once.`)) return;
  const { status, json } = await api('DELETE', `/portal/api/secrets/${encodeURIComponent(secret.secret_code)}`);
  $('secrets-error').textContent = status === 204 ? '' : json?.error?.message ?? `failed (${status})`;
  await Promise.all([loadSecrets(), loadAudit()]);
}

async function loadAudit() {
  const { status, json } = await api('GET', '/portal/api/audit-log?page_size=20');
  if (status !== 200) return;
  $('audit-list').tBodies[0].replaceChildren(
    ...json.results.map((e) => row([e.at, e.action, e.actor.type === 'operator' ? 'an operator' : `you (${e.actor.via})`, e.actor.address])),
  );
}

async function deleteKey(key) {
  if (!window.confirm(`Delete the key "${key.name}"? It stops working at once.`)) return;
  const { status, json } = await api('DELETE', `/portal/api/api-keys/${encodeURIComponent(key.key_code)}`);
  $('keys-error').textContent = status === 204 ? '' : json?.error?.message ?? `failed (${status})`;
  await Promise.all([loadKeys(), loadAudit()]);
}

async function signedIn(body) {
  csrf = body.csrf_token;
  show(true);
  await Promise.all([loadUsage(), loadKeys(), loadSecrets(), loadAudit()]);
}

async function signIn(event, body) {
  event.preventDefault();
  const { status, json } = await api('POST', '/portal/session', body);
  event.target.reset();
  if (status !== 201) {
    $('sign-in-error').textContent = json?.error?.message ?? `sign-in failed (${status})`;
    return;
  }
  $('sign-in-error').textContent = '';
  await signedIn(json);
}

$('key-form').addEventListener('submit', (e) => signIn(e, { api_key: $('api-key').value }));
$('oauth-form').addEventListener('submit', (e) => signIn(e, { client_id: $('client-id').value, client_secret: $('client-secret').value }));
$('sign-out').addEventListener('click', async () => {
  await api('DELETE', '/portal/session');
  csrf = null;
  $('created').hidden = true;
  $('created-key').textContent = '';
  $('created-secret-box').hidden = true;
  $('created-secret').textContent = '';
  show(false);
});
$('new-key').addEventListener('submit', async (e) => {
  e.preventDefault();
  const expiry = $('key-expiry').value;
  const body = { name: $('key-name').value, ...(expiry ? { expires_at: `${expiry}T00:00:00Z` } : {}) };
  const { status, json } = await api('POST', '/portal/api/api-keys', body);
  if (status !== 201) {
    $('keys-error').textContent = json?.error?.message ?? `failed (${status})`;
    return;
  }
  e.target.reset();
  $('keys-error').textContent = '';
  $('created-key').textContent = json.api_key;
  $('created').hidden = false;
  await Promise.all([loadKeys(), loadAudit()]);
});
$('new-secret').addEventListener('submit', async (e) => {
  e.preventDefault();
  const { status, json } = await api('POST', '/portal/api/secret', { name: $('secret-name').value });
  if (status !== 201) {
    $('secrets-error').textContent = json?.error?.message ?? `failed (${status})`;
    return;
  }
  e.target.reset();
  $('secrets-error').textContent = '';
  $('created-secret').textContent = json.client_secret;
  $('created-secret-box').hidden = false;
  await Promise.all([loadSecrets(), loadAudit()]);
});
$('copy-secret').addEventListener('click', () => navigator.clipboard?.writeText($('created-secret').textContent ?? ''));
$('copy').addEventListener('click', () => navigator.clipboard?.writeText($('created-key').textContent ?? ''));

// Live remaining counts, at most every 10 s; each refresh is an `account` call (the minute only).
setInterval(() => {
  if (csrf !== null && document.visibilityState === 'visible') void loadUsage();
}, 10_000);

// A page reloaded within a session carries on with it.
api('GET', '/portal/session').then(({ status, json }) => (status === 200 ? signedIn(json) : show(false)));
