import { entries, has, httpUrlProblem, record, undeclaredApp, type Data } from './rules-util.js';
import type { Finding, Segment } from './yaml-doc.js';
import { daemonKey } from './daemon-url.js';
import { daemonFindings, daemonVersionProblem } from './rules-daemon.js';

// Fleet rules: active app, per-robot overrides, rollout, notify and receiver, most of
// which refer to declared app names.

export function fleetFindings(root: Data): Finding[] {
  const apps = Object.keys(record(root.apps) ?? {});
  const found: Finding[] = [];
  if (typeof root.active === 'string' && !apps.includes(root.active)) {
    found.push({ path: ['active'], message: undeclaredApp(root.active, apps) });
  }
  if (typeof root.startup_app === 'string' && !apps.includes(root.startup_app)) {
    found.push({ path: ['startup_app'], message: undeclaredApp(root.startup_app, apps) });
  }
  for (const [name, robot] of entries(root.robots)) found.push(...robotFindings(name, robot, root, apps));
  found.push(...sharedDaemonFindings(root), ...daemonFindings(root), ...rolloutFindings(root), ...notifyFindings(root), ...receiverFindings(root, apps));
  return found;
}

function robotFindings(name: string, robot: Data, root: Data, apps: string[]): Finding[] {
  const path: Segment[] = ['robots', name];
  const found: Finding[] = [];
  if (typeof robot.url === 'string') {
    const problem = httpUrlProblem(robot.url, 'http://reachy-mini.local:8000');
    if (problem) found.push({ path: [...path, 'url'], message: problem });
  } else if (!has(robot, 'url')) {
    if (!has(robot, 'hardware_id')) found.push({ path, at: 'key', message: 'set url, or hardware_id to find the robot over mDNS (`robotctl robots discover --yaml` writes both)' });
    else if (robot.hardware_id === null) found.push({ path: [...path, 'hardware_id'], message: 'null finds no robot over mDNS: set url for a robot without a hardware id' });
  }
  const version = daemonVersionProblem(record(robot.daemon)?.version);
  if (version) found.push({ path: [...path, 'daemon', 'version'], message: version });
  const own = Array.isArray(robot.apps) ? robot.apps.filter((a): a is string => typeof a === 'string') : undefined;
  if (Array.isArray(robot.apps)) {
    robot.apps.forEach((a: unknown, i) => {
      if (typeof a === 'string' && !apps.includes(a)) found.push({ path: [...path, 'apps', i], message: undeclaredApp(a, apps) });
    });
  }
  found.push(...startupFindings(robot, root, apps, own, path));
  if (has(robot, 'active')) {
    const active = robot.active;
    if (typeof active === 'string') {
      if (!apps.includes(active)) found.push({ path: [...path, 'active'], message: undeclaredApp(active, apps) });
      else if (own && !own.includes(active)) {
        found.push({ path: [...path, 'active'], message: `'${active}' is not among this robot's apps (${own.join(', ') || 'none'})` });
      }
    }
  } else if (own && typeof root.active === 'string' && apps.includes(root.active) && !own.includes(root.active)) {
    found.push({
      path, at: 'key',
      message: `the fleet's active app '${root.active}' is not among this robot's apps; add it to apps or set active for this robot`,
    });
  }
  return found;
}

/** Two robots whose URLs name one daemon: one finding at each URL, naming the other robot. */
function sharedDaemonFindings(root: Data): Finding[] {
  const first = new Map<string, string>();
  const named = new Set<string>();
  const found: Finding[] = [];
  for (const [name, robot] of entries(root.robots)) {
    const key = typeof robot.url === 'string' ? daemonKey(robot.url) : null;
    if (key === null) continue;
    const other = first.get(key);
    if (other === undefined) { first.set(key, name); continue; }
    const why = 'two robots on one daemon would each switch its app to their own';
    if (!named.has(other)) found.push({ path: ['robots', other, 'url'], message: `names the same daemon as robots.${name}.url: ${why}` });
    named.add(other);
    found.push({ path: ['robots', name, 'url'], message: `names the same daemon as robots.${other}.url: ${why}` });
  }
  return found;
}

/** A robot's startup app (its own or the fleet's) must be one of its apps: the daemon refuses one it does not have. */
function startupFindings(robot: Data, root: Data, apps: string[], own: string[] | undefined, path: Segment[]): Finding[] {
  if (has(robot, 'startup_app')) {
    const app = robot.startup_app;
    if (typeof app !== 'string') return [];
    if (!apps.includes(app)) return [{ path: [...path, 'startup_app'], message: undeclaredApp(app, apps) }];
    if (own && !own.includes(app)) return [{ path: [...path, 'startup_app'], message: `'${app}' is not among this robot's apps (${own.join(', ') || 'none'})` }];
    return [];
  }
  const fleet = root.startup_app;
  if (own && typeof fleet === 'string' && apps.includes(fleet) && !own.includes(fleet)) {
    return [{ path, at: 'key', message: `the fleet's startup_app '${fleet}' is not among this robot's apps; add it to apps or set startup_app for this robot` }];
  }
  return [];
}

function rolloutFindings(root: Data): Finding[] {
  const rollout = record(root.rollout);
  const found: Finding[] = [];
  const max = rollout?.max_failures;
  if (typeof max === 'string' && /^[0-9]+(\.[0-9]+)?%$/.test(max) && parseFloat(max) > 100) {
    found.push({ path: ['rollout', 'max_failures'], message: 'must be a percentage between 0% and 100%' });
  }
  if (rollout && has(rollout, 'healthy_for') && has(rollout, 'min_ready')) {
    found.push({ path: ['rollout', 'min_ready'], at: 'key', message: 'min_ready is the old name of healthy_for: set one of them, not both' });
  }
  return found;
}

function notifyFindings(root: Data): Finding[] {
  const notify = record(root.notify);
  if (!notify) return [];
  const found: Finding[] = [];
  if (typeof notify.webhook === 'string') {
    const problem = httpUrlProblem(notify.webhook, 'https://example.org/robotctl');
    if (problem) found.push({ path: ['notify', 'webhook'], message: problem });
  } else if (has(notify, 'secret')) {
    found.push({ path: ['notify', 'secret'], at: 'key', message: 'secret signs the webhook\'s POSTs: set notify.webhook too, or remove it' });
  }
  return found;
}

function receiverFindings(root: Data, apps: string[]): Finding[] {
  const found: Finding[] = [];
  for (const [name, ep] of entries(record(root.receiver)?.endpoints)) {
    const path: Segment[] = ['receiver', 'endpoints', name];
    if (ep.action === 'redeploy' && !has(ep, 'app')) {
      found.push({ path, at: 'key', message: 'action redeploy needs app: the app to redeploy' });
    }
    if (typeof ep.app !== 'string') continue;
    if (ep.action === 'reconcile' || ep.action === 'log') {
      found.push({ path: [...path, 'app'], at: 'key', message: `app is only used with action redeploy, not ${ep.action}` });
    } else if (!apps.includes(ep.app)) {
      found.push({ path: [...path, 'app'], message: undeclaredApp(ep.app, apps) });
    }
  }
  return found;
}
