// The current app: its state (polled), stop and restart, its crash error with
// the stderr tail, and the ⚙ link to its own web UI when custom_app_url is known.
import { api } from './api.js';
import { announce, attempt } from './messages.js';
import { installedApp } from './apps-panel.js';
import { noteManualStop } from './managed.js';

const STOPPABLE = new Set(['starting', 'running', 'error']);
const RESTARTABLE = new Set(['starting', 'running', 'error', 'stopping']);
let busy = false;
let lastStatus = null;
let loaded = false;
let outputKey = '';

/** The app's own UI URL, with 0.0.0.0 (bind-all) replaced by the host this page was opened on. */
export function settingsUrl(raw) {
  if (typeof raw !== 'string' || !raw) return null;
  try {
    const url = new URL(raw);
    if (url.hostname === '0.0.0.0' || url.hostname === '127.0.0.1' || url.hostname === 'localhost') url.hostname = location.hostname;
    return url.href;
  } catch {
    return null;
  }
}

function customUrlOf(status) {
  const fromStatus = status.info?.extra?.custom_app_url;
  if (typeof fromStatus === 'string') return fromStatus;
  const fromInstalled = installedApp(status.info?.name)?.extra?.custom_app_url;
  return typeof fromInstalled === 'string' ? fromInstalled : null;
}

function render(status) {
  const name = document.getElementById('current-name');
  const badge = document.getElementById('current-state');
  const link = document.getElementById('current-settings');
  const errBox = document.getElementById('current-error-box');
  if (!loaded) return;
  document.getElementById('current-line').removeAttribute('aria-busy');
  const state = status ? status.state : 'none';
  name.textContent = status ? status.info.name : 'No app running';
  badge.textContent = status ? state : 'idle';
  badge.dataset.state = state;
  const url = status && state === 'running' ? settingsUrl(customUrlOf(status)) : null;
  link.hidden = !url;
  if (url) {
    link.href = url;
    link.setAttribute('aria-label', `Open the settings of ${status.info.name}`);
    link.title = `Open the settings of ${status.info.name}`;
  }
  const error = status && status.error ? status.error : '';
  errBox.hidden = !error;
  const pre = document.getElementById('current-error');
  if (pre.textContent !== error) {
    pre.textContent = error;
    // A traceback ends with the exception: show the end, not the first frames.
    pre.scrollTop = pre.scrollHeight;
  }
  document.getElementById('stop-app').disabled = busy || !status || !STOPPABLE.has(state);
  document.getElementById('restart-app').disabled = busy || !status || !RESTARTABLE.has(state);
}

/** Re-read the current app status and show it; announces state changes. */
export async function refreshCurrent() {
  let status;
  try { status = await api('GET', '/api/apps/current-app-status'); } catch { return; }
  loaded = true;
  const before = lastStatus;
  lastStatus = status;
  if (before && status && before.info.name === status.info.name && before.state !== status.state && status.state === 'error') {
    announce(`${status.info.name} crashed`, 'error');
  }
  render(status);
}

async function act(label, path, success) {
  busy = true;
  render(lastStatus);
  const name = lastStatus?.info?.name ?? 'the app';
  const done = await attempt(async () => { await api('POST', path); return true; }, `Cannot ${label} ${name}`);
  busy = false;
  if (done) announce(success(name), 'ok');
  await refreshCurrent();
}

/** What the app prints (the daemon's current-app-logs), kept scrolled to the end unless the reader scrolled up. */
export async function refreshOutput() {
  let body;
  try { body = await api('GET', '/api/apps/current-app-logs'); } catch { return; }
  const lines = Array.isArray(body?.logs) ? body.logs.filter((l) => typeof l === 'string') : [];
  const key = `${lines.length}:${lines[lines.length - 1] ?? ''}`;
  if (key === outputKey) return;
  outputKey = key;
  const box = document.getElementById('current-output-box');
  const pre = document.getElementById('current-output');
  const atEnd = pre.scrollHeight - pre.scrollTop - pre.clientHeight < 8;
  box.hidden = lines.length === 0;
  pre.textContent = lines.join('\n');
  if (atEnd || box.dataset.seen !== '1') pre.scrollTop = pre.scrollHeight;
  box.dataset.seen = '1';
}

export function initCurrentApp() {
  document.getElementById('stop-app').addEventListener('click', () => act('stop', '/api/apps/stop-current-app', (n) => { noteManualStop(n); return `${n} stopped`; }));
  document.getElementById('restart-app').addEventListener('click', () => act('restart', '/api/apps/restart-current-app', (n) => `${n} restarted`));
  render(null);
}
