// "Try it": the OpenAPI document's /v1 operations, each with a form of its parameters, sent through
// the session (/portal/try/…), which runs the route with the session's token. The page never
// holds the token, so the explorer cannot be swagger-ui's own "Authorize", which keeps it in the page.
import { $, el } from '../shared/dom.js';

/** What the session will not run: the token endpoints (their answers are tokens) and the stream (it never ends). */
const REFUSED = /^\/v1\/(auth|oauth|stream)\//;

export function setUpExplorer({ api, form }) {
  let operations = [];
  const select = $('try-operation');

  async function load() {
    if (operations.length > 0) return;
    const res = await fetch('/openapi.json', { credentials: 'same-origin' });
    if (!res.ok) return;
    const document = await res.json();
    operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/v1/') && !REFUSED.test(path))
      .flatMap(([path, item]) =>
        ['get', 'post'].filter((method) => item[method] !== undefined).map((method) => ({ path, method: method.toUpperCase(), operation: item[method], document })),
      );
    select.replaceChildren(...operations.map((o, i) => el('option', { value: String(i), text: `${o.method} ${o.path}` })));
    render();
  }

  const resolve = (document, schemaOrRef) => {
    const ref = schemaOrRef?.$ref;
    return typeof ref === 'string' ? ref.split('/').slice(1).reduce((node, key) => node?.[key], document) : schemaOrRef;
  };

  function current() {
    return operations[Number(select.value)];
  }

  function render() {
    const chosen = current();
    if (chosen === undefined) return;
    const { operation, document } = chosen;
    $('try-summary').textContent = operation.summary ?? '';
    const parameters = (operation.parameters ?? []).map((p) => resolve(document, p)).filter((p) => p.in === 'path' || p.in === 'query');
    $('try-parameters').replaceChildren(
      ...parameters.flatMap((p, i) => {
        const id = `try-param-${i}`;
        return [
          el('label', { for: id, text: `${p.name} (${p.in}${p.required ? ', required' : ''})` }),
          el('input', { id, name: p.name, 'data-in': p.in, required: p.required === true, placeholder: p.schema?.example ?? '' }),
        ];
      }),
    );
    const hasBody = operation.requestBody !== undefined;
    $('try-body-box').hidden = !hasBody;
    $('try-body').value = hasBody ? '{}' : '';
  }

  select.addEventListener('change', render);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = current();
    if (chosen === undefined) return;
    let path = chosen.path;
    const query = new URLSearchParams();
    for (const input of $('try-parameters').querySelectorAll('input')) {
      if (input.value === '') continue;
      if (input.dataset.in === 'path') path = path.replace(`{${input.name}}`, encodeURIComponent(input.value));
      else query.append(input.name, input.value);
    }
    let body;
    if (chosen.method === 'POST') {
      try {
        body = JSON.parse($('try-body').value || '{}');
      } catch {
        $('try-status').textContent = 'The body is not valid JSON.';
        return;
      }
    }
    const url = `/portal/try/${path.slice('/v1/'.length)}${query.size > 0 ? `?${query}` : ''}`;
    $('try-status').textContent = 'Sending…';
    const answer = await api(chosen.method, url, body);
    $('try-status').textContent = `${chosen.method} ${path}: ${answer.status}`;
    $('try-answer').textContent = answer.json === null ? '' : JSON.stringify(answer.json, null, 2);
  });
  return { load };
}
