// Tiny DOM helpers: text only (textContent), never innerHTML, so names and
// errors from the agent cannot inject markup.

/** Element with attributes and children (strings become text nodes). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k.startsWith('data-')) node.setAttribute(k, String(v));
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return node;
}

/** Replace the children of `node` (same flattening and null-skipping as `h`). */
export function fill(node, ...children) {
  node.replaceChildren(...h('span', {}, ...children).childNodes);
  return node;
}

/** Table cell with the column name for the stacked (phone) layout; one wrapper keeps it a two-column grid there. */
export const cell = (label, ...children) => h('td', { 'data-label': label }, h('div', {}, ...children));

/** Row header cell (first column), same layout as `cell`. */
export const rowHead = (label, ...children) => h('th', { scope: 'row', 'data-label': label }, h('div', {}, ...children));

export const pill = (text, state) => h('span', { class: 'pill', 'data-state': state }, text);

/** `12:03:04` for today, else the date too; the full ISO time stays in datetime. */
export function timeEl(iso) {
  if (!iso) return h('span', { class: 'muted' }, '–');
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return h('span', {}, String(iso));
  const today = new Date().toDateString() === d.toDateString();
  return h('time', { datetime: iso, title: iso }, today ? d.toLocaleTimeString() : d.toLocaleString());
}

export function duration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '–';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export const list = (items, empty = 'none') =>
  items && items.length ? h('ul', { class: 'inline' }, items.map((i) => h('li', {}, i))) : h('span', { class: 'muted' }, empty);
