// The audit log's entries as table rows, the same in the portal and the console.
import { fillTable, when } from './dom.js';

/** The fields of an entry as `name: value` pairs, which wrap where a line must end. */
const fields = (value) => (value === null ? null : Object.entries(value).map(([name, v]) => `${name}: ${JSON.stringify(v)}`).join(', '));

/** `who(actor)` names the actor as the page's reader knows it. */
export function fillAudit(table, entries, who, withClient = false) {
  fillTable(
    table,
    ['When', ...(withClient ? ['Client'] : []), 'What', 'Who', 'From', 'Before', 'After'],
    entries.map((e) => [when(e.at), ...(withClient ? [e.client_id] : []), e.action, who(e.actor), e.actor.address, fields(e.before), fields(e.after)]),
  );
}
