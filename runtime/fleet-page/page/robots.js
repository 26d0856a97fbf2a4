// One card per robot: a live drawing of its pose (the drawing the robot
// dashboard uses too, from lib/browser/, fed by the robot's state stream),
// its apps with the installed revision, what runs, and why it is not
// converged. Cards are kept across refreshes so the drawings and their
// sockets live on.
import { h, fill, pill } from './dom.js';
import { createRobotView } from './shared/robot-view.js';
import { poseFromState, REST_POSE } from './shared/pose.js';
import { phasePill } from './phase.js';

const STREAM_QUERY = 'frequency=10&with_head_pose=true&with_antenna_positions=true&with_body_yaw=true&use_pose_matrix=false';
const RETRY_MS = 5000;
const cards = new Map();

function robotLink(r) {
  const safe = /^https?:\/\//i.test(r.dashboard ?? '') ? r.dashboard : null;
  return safe ? h('a', { href: safe, target: '_blank', rel: 'noopener' }, r.name) : r.name;
}

/** Keeps a WebSocket to the robot's read-only state stream open while the card exists. */
function liveDrawing(card, url) {
  const view = createRobotView(card.svg, document.createElement('div'));
  let pose = REST_POSE;
  view.draw(pose);
  const open = () => {
    if (card.closed) return;
    let ws;
    try {
      ws = new WebSocket(`${url.replace(/^http/i, 'ws')}/api/state/ws/full?${STREAM_QUERY}`);
    } catch {
      card.live.textContent = 'no live view';
      return;
    }
    card.ws = ws;
    ws.onmessage = (ev) => {
      try { pose = poseFromState(JSON.parse(ev.data), pose); } catch { return; }
      view.draw(pose);
      if (card.live.dataset.state !== 'live') { card.live.dataset.state = 'live'; card.live.textContent = 'live'; }
    };
    ws.onclose = () => {
      card.live.dataset.state = 'offline';
      card.live.textContent = 'offline';
      if (!card.closed) card.retry = setTimeout(open, RETRY_MS);
    };
  };
  open();
}

function newCard(r) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'robot-drawing');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Live drawing of ${r.name}'s pose`);
  const card = { url: r.url, svg, live: h('span', { class: 'live', 'data-state': 'connecting' }, 'connecting…'), closed: false, ws: null, retry: null };
  card.title = h('h3', {});
  card.state = h('div', { class: 'robot-state' });
  card.apps = h('ul', { class: 'apps' });
  card.meta = h('dl', { class: 'robot-meta' });
  card.why = h('div', {});
  card.el = h('li', { class: 'robot-card', 'data-robot': r.name },
    h('div', { class: 'robot-head' }, card.title, card.state),
    h('div', { class: 'robot-body' }, h('figure', { class: 'drawing' }, svg, h('figcaption', {}, card.live)), h('div', {}, card.meta, card.apps, card.why)));
  if (/^https?:\/\//i.test(r.url ?? '')) liveDrawing(card, r.url.replace(/\/+$/, ''));
  return card;
}

function dropCard(card) {
  card.closed = true;
  clearTimeout(card.retry);
  card.ws?.close();
}

const STATE_PILL = { running: 'ok', error: 'failed', starting: 'info', stopping: 'info', done: 'info' };

function appItem(r, name) {
  const rev = r.revisions && typeof r.revisions[name] === 'string' ? r.revisions[name] : null;
  const running = r.running === name;
  return h('li', { 'data-app': name },
    h('span', { class: 'app-name' }, name), ' ',
    rev ? h('code', { class: 'rev', title: rev }, rev.slice(0, 7)) : h('span', { class: 'muted rev' }, 'local'),
    r.active === name ? h('span', { class: 'tag' }, 'active') : null,
    running ? pill(r.app_state ?? 'unknown', STATE_PILL[r.app_state] ?? 'info') : null);
}

/** The daemon's release (and the one robot.yaml wants while they differ), the robot's name, hardware id and startup app. */
function metaItems(r) {
  const version = r.daemon_version ?? 'unknown';
  const daemon = r.daemon_update_to
    ? [h('span', { 'data-field': 'daemon-version' }, version), ' → ', h('span', { class: 'want', 'data-field': 'daemon-update-to' }, r.daemon_update_to), h('span', { class: 'muted' }, ' (robot.yaml)')]
    : [h('span', { 'data-field': 'daemon-version' }, version)];
  const row = (label, field, ...value) => [h('dt', {}, label), h('dd', { 'data-field': field }, ...value)];
  return [
    ...row('Daemon', 'daemon', ...daemon),
    ...row('Name', 'robot-name', r.robot_name ?? '–'),
    ...row('Hardware id', 'hardware-id', r.hardware_id ? h('code', {}, r.hardware_id) : '–'),
    ...row('Startup app', 'startup-app', r.startup_app ?? 'none'),
  ];
}

function fillCard(card, r, rollout) {
  card.el.dataset.converged = String(Boolean(r.converged));
  card.el.dataset.reachable = String(Boolean(r.reachable));
  const where = r.url ? `${r.url}${r.located ? ' (found over mDNS)' : ''}` : 'not found over mDNS';
  fill(card.title, robotLink(r), h('span', { class: 'url muted' }, where));
  card.meta.replaceChildren(...(r.reachable ? metaItems(r) : []));
  fill(card.state, !r.reachable ? pill('unreachable', 'failed') : r.converged ? pill('converged', 'ok') : pill('drifted', 'drift'), ' ', phasePill(rollout, r.name));
  const names = [...new Set([...(r.installed ?? []), ...(r.active ? [r.active] : [])])];
  card.apps.replaceChildren(...(names.length ? names.map((n) => appItem(r, n)) : [h('li', { class: 'muted' }, 'no app installed')]));
  const crash = r.app_error ? [`${r.running ?? 'the app'} crashed: ${r.app_error}`] : [];
  const boot = typeof r.startup_app === 'string' ? [`starts ${r.startup_app} at boot`] : [];
  const lines = [...(r.drift ?? []), ...crash, ...(r.error ? [r.error] : []), ...boot];
  fill(card.why, lines.length ? h('ul', { class: 'why' }, lines.map((d) => h('li', {}, d))) : null);
}

export function renderRobots(status) {
  const seen = new Set();
  const list = document.getElementById('robots');
  const ordered = status.robots.map((r) => {
    seen.add(r.name);
    let card = cards.get(r.name);
    if (card && card.url !== r.url) { dropCard(card); card = undefined; }
    if (!card) { card = newCard(r); cards.set(r.name, card); }
    fillCard(card, r, status.rollout);
    return card.el;
  });
  for (const [name, card] of cards) if (!seen.has(name)) { dropCard(card); cards.delete(name); }
  list.replaceChildren(...ordered);
  const reachable = status.robots.filter((r) => r.reachable).length;
  document.getElementById('robots-count').textContent = `(${status.robots.length}, ${reachable} reachable)`;
  document.getElementById('robots-empty').hidden = status.robots.length > 0;
}
