// Entry point of the robot dashboard: wires the header, the live view, the
// current app and the installed apps, and keeps them fresh.
import { api } from './api.js';
import { poseFromState, REST_POSE } from './shared/pose.js';
import { createRobotView } from './shared/robot-view.js';
import { streamState } from './state-stream.js';
import { initAppsPanel, refreshInstalled } from './apps-panel.js';
import { initCurrentApp, refreshCurrent, refreshOutput } from './current-app.js';
import { refreshManaged } from './managed.js';

const STATUS_MS = 3000;
const APP_MS = 1000;
const NUMBERS_MS = 100; // text readouts at 10 Hz stay readable; the drawing runs every frame

async function refreshDaemon() {
  const badge = document.getElementById('daemon-state');
  try {
    const s = await api('GET', '/api/daemon/status');
    const name = typeof s.robot_name === 'string' && s.robot_name ? s.robot_name : 'Reachy Mini';
    document.getElementById('robot-name').textContent = name;
    document.title = `${name} · Reachy Mini dashboard`;
    badge.textContent = s.state;
    badge.dataset.state = s.state;
    const sim = s.simulation_enabled || s.mockup_sim_enabled;
    document.getElementById('daemon-mode').textContent = sim ? 'simulated robot' : 'robot';
    document.getElementById('daemon-version').textContent = s.version ?? '–';
  } catch (err) {
    badge.textContent = 'unreachable';
    badge.dataset.state = 'unreachable';
  }
}

function startLiveView() {
  const view = createRobotView(document.getElementById('robot-svg'), document.getElementById('pose-numbers'));
  const modeEl = document.getElementById('stream-mode');
  const rateEl = document.getElementById('stream-rate');
  let pose = REST_POSE;
  let drawDirty = true;
  let numbersDirty = true;
  let samples = 0;
  let lastNumbers = 0;
  streamState({
    frequency: 50,
    onState: (doc) => { pose = poseFromState(doc, pose); drawDirty = true; numbersDirty = true; samples += 1; },
    onMode: (mode) => {
      if (modeEl.dataset.mode === mode) return;
      modeEl.dataset.mode = mode;
      modeEl.textContent = mode === 'websocket' ? 'live (WebSocket)' : mode === 'polling' ? 'live (polling)' : 'offline';
    },
  });
  setInterval(() => { rateEl.textContent = `${samples} updates/s`; samples = 0; }, 1000);
  const frame = (now) => {
    if (drawDirty) { view.draw(pose); drawDirty = false; }
    if (numbersDirty && now - lastNumbers >= NUMBERS_MS) { view.showNumbers(pose); numbersDirty = false; lastNumbers = now; }
    requestAnimationFrame(frame);
  };
  view.draw(pose);
  view.showNumbers(pose);
  requestAnimationFrame(frame);
}

function every(ms, fn) {
  fn();
  setInterval(fn, ms);
}

initCurrentApp();
initAppsPanel(() => { refreshCurrent(); });
startLiveView();
every(STATUS_MS, refreshDaemon);
every(APP_MS, refreshCurrent);
every(APP_MS, refreshOutput);
every(STATUS_MS, refreshManaged);
refreshInstalled();
setInterval(refreshInstalled, 10_000);
