// Fleet page entry: polls the agent's /status and redraws the sections that
// changed (unchanged sections keep their DOM, so keyboard focus stays put).
import { renderHeader, renderHub, renderReceiver } from './render.js';
import { renderRobots } from './robots.js';
import { renderRollout } from './rollout.js';
import { renderDeliveries, renderRun, renderRuns } from './history.js';

// A change on a robot reaches /status within a second (the agent follows each robot's app: pushed by robotctl's
// simulator, polled every second on Pollen's daemon); read twice a second, the page shows it within 2 s.
const POLL_MS = 500;
const SUPPORTED_MAJOR = '2';
const last = new Map();
let paused = false;
let timer = null;
let lastState = null;

function section(key, value, render) {
  const json = JSON.stringify(value ?? null);
  if (last.get(key) === json) return;
  last.set(key, json);
  render(value);
}

function announce(text) {
  document.getElementById('announce').textContent = text;
}

function setConnection(state, text) {
  const el = document.getElementById('connection');
  el.dataset.state = state;
  el.textContent = text;
}

function show(status) {
  const state = renderHeader(status);
  // The cards show each robot's rollout phase too.
  section('robots', [status.robots, status.rollout], () => renderRobots(status));
  section('rollout', status.rollout, renderRollout);
  section('hub', status.hub, renderHub);
  section('receiver', status.receiver, renderReceiver);
  section('run', status.last_run, renderRun);
  section('runs', status.runs, renderRuns);
  section('deliveries', status.deliveries, renderDeliveries);
  const updated = document.getElementById('updated');
  updated.textContent = new Date().toLocaleTimeString();
  updated.setAttribute('datetime', status.generated_at ?? new Date().toISOString());
  if (state !== lastState) {
    const drifted = status.robots.filter((r) => !r.converged).map((r) => r.name);
    if (lastState !== null || state !== 'converged') {
      announce(state === 'drift' ? `Drift detected${drifted.length ? ` on ${drifted.join(', ')}` : ''}` : document.getElementById('fleet-state').textContent);
    }
    lastState = state;
  }
}

async function load() {
  try {
    const res = await fetch('/status', { headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const status = await res.json();
    const major = String(status.format_version ?? '').split('.')[0];
    if (major !== SUPPORTED_MAJOR) {
      setConnection('failed', `unsupported status format ${status.format_version ?? '(none)'}: this page reads ${SUPPORTED_MAJOR}.x`);
      return;
    }
    show(status);
    if (paused) setConnection('paused', 'paused'); else setConnection('ok', 'live');
  } catch (err) {
    setConnection('failed', `agent unreachable (${err instanceof Error ? err.message : String(err)}); retrying`);
  }
}

function schedule() {
  clearTimeout(timer);
  if (!paused) timer = setTimeout(async () => { await load(); schedule(); }, POLL_MS);
}

document.getElementById('pause').addEventListener('click', (ev) => {
  paused = !paused;
  const btn = ev.currentTarget;
  btn.setAttribute('aria-pressed', String(paused));
  btn.textContent = paused ? 'Resume updates' : 'Pause updates';
  if (paused) setConnection('paused', 'paused');
  else load().then(schedule);
});
document.getElementById('refresh').addEventListener('click', () => { load(); });

load().then(schedule);
