// Installed apps (start, remove) and the install form (Space URL or local folder).
import { api } from './api.js';
import { announce, attempt } from './messages.js';
import { followJob } from './job-log.js';

let lastListJson = '';
let installed = [];
let onChange = () => {};

/** AppInfo of an installed app by name (for its extra.custom_app_url). */
export const installedApp = (name) => installed.find((a) => a.name === name);

function sourceText(app) {
  // The installed list says source_kind 'installed'; the folder of a local install is its extra.path.
  if (app.extra && typeof app.extra.path === 'string') return `local: ${app.extra.path}`;
  // Where the daemon really downloaded it from (a simulated robot may install from an embedded hub).
  if (app.extra && typeof app.extra.space_url === 'string') return app.extra.space_url;
  if (app.url) return app.url;
  return app.source_kind;
}

function button(text, label, handler) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.addEventListener('click', () => handler(b));
  return b;
}

function renderItem(app) {
  const li = document.createElement('li');
  li.dataset.app = app.name;
  const info = document.createElement('div');
  info.className = 'app-info';
  const name = document.createElement('span');
  name.className = 'app-name';
  name.textContent = app.name;
  const src = document.createElement('span');
  src.className = 'muted source';
  src.textContent = sourceText(app);
  info.append(name, src);
  if (app.description) {
    const d = document.createElement('span');
    d.className = 'desc';
    d.textContent = app.description;
    info.append(d);
  }
  const actions = document.createElement('div');
  actions.className = 'actions';
  actions.append(
    button('Start', `Start ${app.name}`, (b) => startApp(app.name, b)),
    button('Remove', `Remove ${app.name}`, (b) => removeApp(app.name, b)),
  );
  li.append(info, actions);
  return li;
}

/** Re-read the installed list; the DOM is rebuilt only when it changed, so focus stays put. */
export async function refreshInstalled() {
  const got = await attempt(() => api('GET', '/api/apps/list-available/installed'), 'Could not list installed apps');
  if (!Array.isArray(got)) return;
  // By name: the daemon lists in the order it finds the apps on disk, which an update changes (its buttons moved to another row).
  const list = [...got].sort((a, b) => String(a.name).localeCompare(String(b.name)));
  installed = list;
  const json = JSON.stringify(list);
  if (json === lastListJson) return;
  lastListJson = json;
  const ul = document.getElementById('installed-list');
  ul.replaceChildren(...list.map(renderItem));
  const empty = document.getElementById('installed-empty');
  empty.textContent = 'No app installed yet.';
  empty.removeAttribute('aria-busy');
  empty.hidden = list.length > 0;
}

async function startApp(name, btn) {
  btn.disabled = true;
  const status = await attempt(() => api('POST', `/api/apps/start-app/${encodeURIComponent(name)}`), `Cannot start ${name}`);
  btn.disabled = false;
  if (status) announce(`${name} is ${status.state ?? 'starting'}`, 'ok');
  onChange();
}

async function runJob(what, name, request) {
  const started = await attempt(request, `Cannot ${what} ${name}`);
  if (!started || typeof started.job_id !== 'string') return;
  const info = await followJob(started.job_id, `${what[0].toUpperCase()}${what.slice(1)} ${name}`);
  if (info.status === 'done') announce(`${what} of ${name} finished`, 'ok');
  else announce(`${what} of ${name} failed${info.logs.length ? `: ${info.logs[info.logs.length - 1]}` : ''}`, 'error');
  await refreshInstalled();
  onChange();
}

function removeApp(name, btn) {
  btn.disabled = true;
  return runJob('remove', name, () => api('POST', `/api/apps/remove/${encodeURIComponent(name)}`)).finally(() => { btn.disabled = false; });
}

/** Name from the last segment of a URL or folder path (hello_app from …/spaces/alice/hello_app). */
export function nameFromSource(source) {
  const parts = source.trim().replace(/[?#].*$/, '').split(/[\\/]+/).filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

function installBody(kind, source, name) {
  if (kind === 'local') return { name, source_kind: 'local', description: '', url: null, extra: { path: source } };
  return { name, source_kind: 'hf_space', description: '', url: source, extra: {} };
}

function syncKind(form) {
  const local = form.elements.kind.value === 'local';
  document.getElementById('install-source-label').textContent = local ? 'Folder path on the robot' : 'Space URL';
  const input = document.getElementById('install-source');
  input.placeholder = local ? '/home/pollen/apps/my_app' : 'https://huggingface.co/spaces/owner/app';
  document.getElementById('install-source-hint').textContent = local
    ? 'A folder with a pyproject.toml, installed in development mode'
    : 'For example https://huggingface.co/spaces/pollen-robotics/hello_app';
}

async function submitInstall(form) {
  const kind = form.elements.kind.value;
  const source = form.elements.source.value.trim();
  const input = document.getElementById('install-source');
  if (!source) {
    input.setAttribute('aria-invalid', 'true');
    announce(kind === 'local' ? 'Enter the folder path of the app' : 'Enter the URL of the Space', 'error');
    input.focus();
    return;
  }
  input.removeAttribute('aria-invalid');
  const name = form.elements.name.value.trim() || nameFromSource(source);
  const submit = document.getElementById('install-submit');
  submit.disabled = true;
  try {
    await runJob('install', name, () => api('POST', '/api/apps/install', installBody(kind, source, name)));
  } finally {
    submit.disabled = false;
  }
}

/** Wire the install form; `changed()` is called after any action that may change the current app. */
export function initAppsPanel(changed) {
  onChange = changed;
  const form = document.getElementById('install-form');
  form.addEventListener('change', () => syncKind(form));
  form.addEventListener('submit', (ev) => { ev.preventDefault(); submitInstall(form); });
  syncKind(form);
}
