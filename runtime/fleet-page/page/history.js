// The last applies (trigger, result, duration, actions) and deliveries, and
// the actions of the last apply.
import { h, fill, cell, rowHead, pill, timeEl, duration } from './dom.js';

const MAX_DELIVERIES = 20;
const RUN_PILL = { converged: 'ok', drift: 'drift', failed: 'failed', running: 'info' };
const OUTCOME_PILL = { ok: 'ok', failed: 'failed', skipped: 'info' };
const DELIVERY_PILL = { ok: 'ok', accepted: 'info', duplicate: 'info', failed: 'failed', rejected: 'failed' };

const runMs = (run) => (run.finished_at ? Date.parse(run.finished_at) - Date.parse(run.started_at) : null);

export function renderRuns(runs) {
  const list = Array.isArray(runs) ? runs : [];
  document.getElementById('runs-empty').hidden = list.length > 0;
  document.getElementById('runs-table').hidden = list.length === 0;
  document.getElementById('runs').replaceChildren(...list.map((run) => {
    const failed = run.actions.filter((a) => a.outcome === 'failed').length;
    return h('tr', { 'data-result': run.result },
      rowHead('Started', timeEl(run.started_at)),
      cell('Trigger', run.trigger),
      cell('Result', pill(run.result, RUN_PILL[run.result] ?? 'info')),
      cell('Duration', run.finished_at ? duration(runMs(run)) : 'running…'),
      cell('Actions', `${run.actions.length}${failed ? `, ${failed} failed` : ''}`));
  }));
}

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
