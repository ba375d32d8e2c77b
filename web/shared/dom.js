// Small DOM helpers: text only (textContent), never HTML from data, so nothing a client named can run.

export const $ = (id) => {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`no #${id}`);
  return element;
};

export function el(tag, attributes = {}, children = []) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') element.textContent = value;
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  element.append(...children);
  return element;
}

const shown = (value) => (value === null || value === undefined ? '—' : String(value));

/** A table row of cells: text, or an element as it is. */
export const row = (cells, header = false) => el('tr', {}, cells.map((c) => (c instanceof Node ? el('td', {}, [c]) : el(header ? 'th' : 'td', { text: shown(c), ...(header ? { scope: 'col' } : {}) }))));

/** Replaces a table's head and body. */
export function fillTable(table, headings, rows) {
  table.tHead.replaceChildren(row(headings, true));
  table.tBodies[0].replaceChildren(...rows.map((cells) => row(cells)));
}

/** A button; `danger` for a destructive one. */
export const button = (text, onclick, danger = false) => el('button', { type: 'button', class: danger ? 'danger' : undefined, text, onclick });

/** A date-time to the minute, in UTC as the API counts: `2026-11-25 14:02 UTC`. */
export const when = (iso) => (iso === null || iso === undefined ? null : `${iso.slice(0, 16).replace('T', ' ')} UTC`);

/** A date-time to the second, where a minute is too coarse (attempts a few seconds apart): `2026-11-25 14:02:07 UTC`. */
export const whenExactly = (iso) => (iso === null || iso === undefined ? null : `${iso.slice(0, 19).replace('T', ' ')} UTC`);

/**
 * Sections shown one at a time by the URL's fragment (#usage, #keys…), so that each has its own
 * address, the back button works, and no script is needed in the links themselves.
 */
export function sections(ids, onShow) {
  const show = () => {
    const wanted = location.hash.slice(1);
    const current = ids.includes(wanted) ? wanted : ids[0];
    for (const id of ids) $(id).hidden = id !== current;
    for (const link of document.querySelectorAll('nav a')) {
      if (link.getAttribute('href') === `#${current}`) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    onShow(current);
  };
  window.addEventListener('hashchange', show);
  return show;
}

/** Copies an output's text, and says so to screen readers. */
export function copyButton(button, output, status) {
  button.addEventListener('click', async () => {
    await navigator.clipboard?.writeText(output.textContent ?? '');
    status.textContent = 'Copied.';
  });
}

/** Shows a credential this once in its box (`output`, its copy button and copy status), and focuses the copy button. */
export function showOnce({ box, output, copy, status }, text) {
  output.textContent = text;
  status.textContent = '';
  box.hidden = false;
  copy.focus();
}

/**
 * The newer/older buttons of a list paged newest first, and its "page x of y" line. `go(page)` loads a
 * page; `show(answer)` sets the controls from a page answer ({page, total_pages, total_count}).
 */
export function pager({ newer, older, label }, go) {
  let at = 1;
  let last = 1;
  newer.addEventListener('click', () => at > 1 && go(at - 1));
  older.addEventListener('click', () => at < last && go(at + 1));
  return {
    show({ page, total_pages: pages, total_count: count }) {
      at = page;
      last = Math.max(1, pages);
      newer.disabled = at <= 1;
      older.disabled = at >= last;
      label.textContent = `Page ${at} of ${last} (${count} in all)`;
    },
  };
}
