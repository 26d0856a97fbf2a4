// Renders each section of the fleet page from the agent's AgentStatus
// (reconciler/agent/status-types.ts). Pure DOM building, no fetching.
import { h, fill, cell, rowHead, pill, timeEl, duration, list } from './dom.js';

const MAX_DELIVERIES = 20;

function robotLink(r) {
  const safe = /^https?:\/\//i.test(r.dashboard ?? '') ? r.dashboard : null;
  return safe ? h('a', { href: safe, target: '_blank', rel: 'noopener' }, r.name) : r.name;
}

function robotState(r) {
  if (!r.reachable) return [pill('unreachable', 'failed'), r.error ? h('p', { class: 'why' }, r.error) : null];
  const head = r.converged ? pill('converged', 'ok') : pill('drifted', 'drift');
  const lines = r.drift && r.drift.length ? h('ul', { class: 'why' }, r.drift.map((d) => h('li', {}, d))) : null;
  return [head, lines, r.error ? h('p', { class: 'why' }, r.error) : null];
}

function runningText(r) {
  if (!r.running) return h('span', { class: 'muted' }, 'none');
  return [r.running, ' ', pill(r.app_state ?? 'unknown', r.app_state === 'running' ? 'ok' : r.app_state === 'error' ? 'failed' : 'info')];
}

export function renderRobots(status) {
  const rows = status.robots.map((r) => h('tr', { 'data-robot': r.name, 'data-converged': String(Boolean(r.converged)), 'data-reachable': String(Boolean(r.reachable)) },
    rowHead('Robot', robotLink(r), h('span', { class: 'url muted' }, r.url)),
    cell('Reachable', r.reachable ? pill('yes', 'ok') : pill('no', 'failed')),
    cell('Installed apps', list(r.installed)),
    cell('Active app', r.active ?? h('span', { class: 'muted' }, 'none')),
    cell('Running', runningText(r)),
    cell('State', robotState(r)),
  ));
  document.getElementById('robots').replaceChildren(...rows);
  const reachable = status.robots.filter((r) => r.reachable).length;
  document.getElementById('robots-count').textContent = `(${status.robots.length}, ${reachable} reachable)`;
  document.getElementById('robots-empty').hidden = status.robots.length > 0;
  document.getElementById('robots-table').hidden = status.robots.length === 0;
}

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

const RUN_PILL = { converged: 'ok', drift: 'drift', failed: 'failed', running: 'info' };
const OUTCOME_PILL = { ok: 'ok', failed: 'failed', skipped: 'info' };

export function renderRun(run) {
  const summary = document.getElementById('run-summary');
  const table = document.getElementById('actions-table');
  if (!run) {
    summary.textContent = 'No apply yet.';
    table.hidden = true;
    return;
  }
  const failed = run.actions.filter((a) => a.outcome === 'failed').length;
  fill(summary, pill(run.result, RUN_PILL[run.result] ?? 'info'), ` triggered by ${run.trigger}, started `, timeEl(run.started_at),
    run.finished_at ? [', finished ', timeEl(run.finished_at)] : ' (still running)',
    ` · ${run.actions.length} action(s)${failed ? `, ${failed} failed` : ''}`);
  summary.dataset.result = run.result;
  table.hidden = run.actions.length === 0;
  document.getElementById('actions').replaceChildren(...run.actions.map((a) => h('tr', { 'data-outcome': a.outcome },
    rowHead('Resource', h('code', {}, a.address)),
    cell('Action', a.kind),
    cell('Outcome', pill(a.outcome, OUTCOME_PILL[a.outcome] ?? 'info')),
    cell('Time', duration(a.duration_ms)),
    cell('Error', a.error ? h('span', { class: 'why' }, a.error) : h('span', { class: 'muted' }, '–')),
  )));
}

const DELIVERY_PILL = { ok: 'ok', accepted: 'info', duplicate: 'info', failed: 'failed', rejected: 'failed' };

export function renderDeliveries(deliveries) {
  const newest = [...deliveries].sort((a, b) => String(b.at).localeCompare(String(a.at))).slice(0, MAX_DELIVERIES);
  document.getElementById('deliveries-empty').hidden = newest.length > 0;
  document.getElementById('deliveries-table').hidden = newest.length === 0;
  document.getElementById('deliveries').replaceChildren(...newest.map((d) => h('tr', { 'data-outcome': d.outcome },
    rowHead('Received', timeEl(d.at)),
    cell('Endpoint', h('code', {}, d.endpoint)),
    cell('Event', d.event ?? h('span', { class: 'muted' }, '–')),
    cell('Repo', d.repo ?? h('span', { class: 'muted' }, '–')),
    cell('HTTP', String(d.status)),
    cell('Outcome', pill(d.outcome, DELIVERY_PILL[d.outcome] ?? 'info'),
      d.error ? h('span', { class: 'why' }, ` ${d.error}`) : null, d.action ? h('span', { class: 'muted' }, ` ${d.action}`) : null),
  )));
}

/** Header: file, mode, overall converged/drift state. Returns the overall state word. */
export function renderHeader(status) {
  document.getElementById('file').textContent = status.file;
  document.getElementById('mode').textContent = status.mode === 'heal' ? 'heal (drift is corrected)' : 'warn (drift is reported)';
  const unreachable = status.robots.some((r) => !r.reachable) || (status.hub && !status.hub.reachable);
  const running = status.last_run && status.last_run.result === 'running';
  const state = status.drift ? 'drift' : unreachable ? 'degraded' : running ? 'running' : 'converged';
  const text = { drift: 'Drift detected', degraded: 'Some targets unreachable', running: 'Applying…', converged: 'Converged' }[state];
  const el = document.getElementById('fleet-state');
  el.textContent = text;
  el.dataset.state = state;
  const banner = document.getElementById('config-error');
  banner.hidden = !status.config_error;
  banner.textContent = status.config_error ? `robot.yaml could not be loaded (the last good version is in use): ${status.config_error}` : '';
  return state;
}
