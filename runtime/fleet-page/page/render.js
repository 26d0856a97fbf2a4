// The header (overall state, config error), the hub's webhooks and the
// receiver's endpoints, from the agent's /status (AgentStatus, format 2.x:
// reconciler/agent/status-types.ts). Pure DOM building, no fetching.
import { h, fill, cell, rowHead, pill } from './dom.js';

const WEBHOOK_PILL = { converged: 'ok', drifted: 'drift', missing: 'failed', unknown: 'info' };

export function renderHub(hub) {
  const summary = document.getElementById('hub-summary');
  const table = document.getElementById('hub-table');
  if (!hub) {
    summary.textContent = 'robot.yaml declares no webhook.';
    table.hidden = true;
    return;
  }
  fill(summary, h('code', {}, hub.endpoint), ' · ', hub.reachable ? pill('reachable', 'ok') : pill('unreachable', 'failed'),
    hub.error ? h('span', { class: 'why' }, ` ${hub.error}`) : null);
  table.hidden = hub.webhooks.length === 0;
  document.getElementById('webhooks').replaceChildren(...hub.webhooks.map((w) => h('tr', { 'data-webhook': w.name, 'data-state': w.state },
    rowHead('Webhook', w.name),
    cell('Hub id', w.id ? h('code', {}, w.id) : h('span', { class: 'muted' }, 'none')),
    cell('State', pill(w.state, WEBHOOK_PILL[w.state] ?? 'info'), w.drift && w.drift.length ? h('ul', { class: 'why' }, w.drift.map((d) => h('li', {}, d))) : null),
  )));
}

/** The receiver's endpoints as absolute URLs on this page's origin, with what each does. */
export function renderReceiver(receiver) {
  const endpoints = receiver && Array.isArray(receiver.endpoints) ? receiver.endpoints : [];
  document.getElementById('receiver-empty').hidden = endpoints.length > 0;
  document.getElementById('receiver-help').hidden = endpoints.length === 0;
  document.getElementById('receiver-endpoints').replaceChildren(...endpoints.map((e) => h('li', { 'data-endpoint': e.path },
    h('code', {}, `POST ${location.origin}${e.path}`), ' ', h('span', { class: 'muted' }, e.action))));
}

const STATE_TEXT = {
  'config-error': 'Config error', drift: 'Drift detected', degraded: 'Some targets unreachable', running: 'Applying…', converged: 'Converged',
};

/** Header: file, mode, overall state, config error. Returns the overall state word. */
export function renderHeader(status) {
  document.getElementById('file').textContent = status.file;
  document.getElementById('mode').textContent = status.mode === 'heal' ? 'heal (drift is corrected)' : 'warn (drift is reported)';
  const unreachable = status.robots.some((r) => !r.reachable) || (status.hub && !status.hub.reachable);
  const running = status.last_run && status.last_run.result === 'running';
  // A file that cannot be loaded outranks everything: the fleet follows an old version of it.
  const state = status.config_error ? 'config-error' : status.drift ? 'drift' : unreachable ? 'degraded' : running ? 'running' : 'converged';
  const el = document.getElementById('fleet-state');
  el.textContent = STATE_TEXT[state];
  el.dataset.state = state;
  const banner = document.getElementById('config-error');
  banner.hidden = !status.config_error;
  banner.textContent = status.config_error ? `robot.yaml could not be loaded (the last good version is in use): ${status.config_error}` : '';
  return state;
}
