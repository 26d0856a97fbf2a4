// The page's aria-live region: every success and every refusal lands here in
// the daemon's own words, newest first, so keyboard and screen-reader users
// hear what happened.

const KEEP = 4;

/** Show `text` in #messages; kind is 'ok' | 'refused' (the daemon said no) | 'error' | 'info'. */
export function announce(text, kind = 'info') {
  const root = document.getElementById('messages');
  if (!root) return;
  const item = document.createElement('p');
  item.className = `msg msg-${kind === 'refused' ? 'error' : kind}`;
  item.dataset.kind = kind;
  const label = document.createElement('strong');
  label.textContent = { refused: 'Refused: ', error: 'Error: ', ok: 'Done: ' }[kind] ?? '';
  item.append(label, document.createTextNode(text));
  root.prepend(item);
  while (root.children.length > KEEP) root.lastElementChild.remove();
}

/** Run an action, announcing its failure; returns its value or undefined. */
export async function attempt(action, describeFailure) {
  try {
    return await action();
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    announce(describeFailure ? `${describeFailure}: ${text}` : text, 'refused');
    return undefined;
  }
}
