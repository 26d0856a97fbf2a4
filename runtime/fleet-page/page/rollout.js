// The apply in progress (or the last one) as a rollout: the canary wave
// first, then the rest, a bar per robot (actions done of its total) and the
// failures counted against rollout.max_failures. Under a robot's bar: what
// it is doing (`update daemon 1.9.0 → 1.10.0`) and the last lines its job
// logged, so a daemon update reads like an app rollout.
import { h, fill, pill } from './dom.js';

const ROBOT_PILL = { pending: 'info', running: 'info', ok: 'ok', failed: 'failed', rolled_back: 'drift', skipped: 'drift' };

function bar(r) {
  const total = Math.max(1, r.total ?? 0);
  const done = Math.min(total, r.done ?? 0);
  const row = h('div', { class: 'bar-row', 'data-robot': r.name, 'data-state': r.state },
    h('span', { class: 'bar-name' }, r.name),
    h('progress', { max: String(total), value: String(done), 'aria-label': `${r.name}: ${done} of ${r.total ?? 0} actions` }),
    h('span', { class: 'bar-count muted' }, `${done}/${r.total ?? 0}`),
    pill(r.state.replace('_', ' '), ROBOT_PILL[r.state] ?? 'info'));
  const log = Array.isArray(r.log) ? r.log : [];
  if (!r.step && log.length === 0) return row;
  return h('div', { class: 'bar-item', 'data-robot': r.name }, row,
    h('div', { class: 'bar-detail' },
      r.step ? h('span', { class: 'bar-step' }, r.step) : null,
      log.length ? h('pre', { class: 'log-tail', 'aria-label': `${r.name}: last lines logged` }, log.join('\n')) : null));
}

export function renderRollout(rollout) {
  const section = document.getElementById('rollout');
  section.hidden = !rollout || !Array.isArray(rollout.waves) || rollout.waves.length === 0;
  if (section.hidden) return;
  const over = rollout.failures > rollout.max_failures;
  section.dataset.result = rollout.result;
  fill(document.getElementById('rollout-summary'),
    rollout.result === 'running' ? pill('applying', 'info') : pill(rollout.result, rollout.result === 'converged' ? 'ok' : rollout.result === 'failed' ? 'failed' : 'drift'),
    ' ', h('span', { id: 'rollout-failures', class: over ? 'why' : '' }, `${rollout.failures} failed of max_failures ${rollout.max_failures}`),
    rollout.halted ? h('strong', { class: 'why' }, ' · rollout stopped: robots not started yet are skipped') : null);
  document.getElementById('rollout-waves').replaceChildren(...rollout.waves.map((w, i) => h('div', { class: 'wave', 'data-wave': w.name },
    h('h3', { class: 'sub' }, w.name === 'canary' ? `Wave ${i + 1}: canary` : `Wave ${i + 1}`),
    ...w.robots.map(bar))));
}
