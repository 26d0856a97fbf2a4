// Draws the robot (front view plus a top view of the yaws) in an SVG and
// shows the pose as numbers. Drawing only: the caller feeds poses.
import { deg } from './pose.js';

const NS = 'http://www.w3.org/2000/svg';
const PX_PER_M = 900; // head translations are a few centimetres: make them visible

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function buildFront(svg) {
  const body = el('g', {}, svg);
  el('path', { d: 'M70 228 L84 150 Q120 138 156 150 L170 228 Z', class: 'rv-body' }, body);
  const belly = el('ellipse', { cx: 120, cy: 190, rx: 9, ry: 22, class: 'rv-mark' }, body);
  el('rect', { x: 112, y: 128, width: 16, height: 22, rx: 4, class: 'rv-neck' }, svg);
  const head = el('g', {}, svg);
  const antL = el('g', {}, head);
  el('line', { x1: 0, y1: 0, x2: 0, y2: -54, class: 'rv-antenna' }, antL);
  el('circle', { cx: 0, cy: -54, r: 5, class: 'rv-tip' }, antL);
  const antR = el('g', {}, head);
  el('line', { x1: 0, y1: 0, x2: 0, y2: -54, class: 'rv-antenna' }, antR);
  el('circle', { cx: 0, cy: -54, r: 5, class: 'rv-tip' }, antR);
  el('rect', { x: -58, y: -36, width: 116, height: 72, rx: 34, class: 'rv-head' }, head);
  const face = el('g', {}, head);
  el('circle', { cx: -22, cy: 0, r: 12, class: 'rv-eye' }, face);
  el('circle', { cx: 22, cy: 0, r: 12, class: 'rv-eye' }, face);
  el('circle', { cx: -22, cy: 0, r: 5, class: 'rv-pupil' }, face);
  el('circle', { cx: 22, cy: 0, r: 5, class: 'rv-pupil' }, face);
  return { belly, head, face, antL, antR };
}

function buildTop(svg) {
  const g = el('g', { transform: 'translate(206 34)' }, svg);
  el('circle', { cx: 0, cy: 0, r: 26, class: 'rv-dial' }, g);
  const body = el('line', { x1: 0, y1: 0, x2: 0, y2: -24, class: 'rv-dial-body' }, g);
  const head = el('line', { x1: 0, y1: 0, x2: 0, y2: -18, class: 'rv-dial-head' }, g);
  el('text', { x: 0, y: 40, class: 'rv-dial-label', 'text-anchor': 'middle' }, g).textContent = 'top view';
  return { body, head };
}

const FIELDS = [
  ['head-roll', (p) => deg(p.roll).toFixed(1)],
  ['head-pitch', (p) => deg(p.pitch).toFixed(1)],
  ['head-yaw', (p) => deg(p.yaw).toFixed(1)],
  ['head-x', (p) => (p.x * 1000).toFixed(1)],
  ['head-y', (p) => (p.y * 1000).toFixed(1)],
  ['head-z', (p) => (p.z * 1000).toFixed(1)],
  ['antenna-left', (p) => deg(p.antennas[0]).toFixed(1)],
  ['antenna-right', (p) => deg(p.antennas[1]).toFixed(1)],
  ['body-yaw', (p) => deg(p.bodyYaw).toFixed(1)],
];

/** Build the drawing inside `svg` and return a `draw(pose)` and a throttled `showNumbers(pose)`. */
export function createRobotView(svg, numbersRoot) {
  svg.setAttribute('viewBox', '0 0 240 240');
  const front = buildFront(svg);
  const top = buildTop(svg);
  const outputs = FIELDS.map(([id, fmt]) => [numbersRoot.querySelector(`#${id}`), fmt]);
  return {
    draw(p) {
      // Front view: the viewer faces the robot, so robot-left (+y, +yaw) is screen-right.
      const hx = 120 + p.y * PX_PER_M;
      const hy = 96 - p.z * PX_PER_M;
      front.head.setAttribute('transform', `translate(${hx.toFixed(2)} ${hy.toFixed(2)}) rotate(${(-deg(p.roll)).toFixed(2)})`);
      front.face.setAttribute('transform', `translate(${(26 * Math.sin(p.yaw)).toFixed(2)} ${(14 * Math.sin(p.pitch)).toFixed(2)})`);
      front.antR.setAttribute('transform', `translate(30 -30) rotate(${deg(p.antennas[0]).toFixed(2)})`);
      front.antL.setAttribute('transform', `translate(-30 -30) rotate(${deg(p.antennas[1]).toFixed(2)})`);
      front.belly.setAttribute('cx', (120 + 34 * Math.sin(p.bodyYaw)).toFixed(2));
      top.body.setAttribute('transform', `rotate(${(-deg(p.bodyYaw)).toFixed(2)})`);
      top.head.setAttribute('transform', `rotate(${(-deg(p.yaw)).toFixed(2)})`);
    },
    showNumbers(p) {
      for (const [node, fmt] of outputs) if (node) node.textContent = fmt(p);
    },
  };
}
