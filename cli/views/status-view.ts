import { useColor, type Io } from '../../lib/io.js';
import type { FleetStatus, RobotStatus } from '../../reconciler/agent/status-types.js';
import { indent, palette } from './format.js';
import { formatTable } from './table.js';
import { shortSha } from '../../reconciler/plan-held.js';
import type { ViewType } from './view-type.js';

// `robotctl status`: the fleet's status (the same document the agent's
// /status serves) as tables, or as that JSON document. Secrets never appear
// (the document holds no webhook secret at all).

export interface StatusView {
  show(doc: FleetStatus): void;
}

export function newStatusView(type: ViewType, io: Io): StatusView {
  if (type === 'json') return { show: (doc) => io.out(statusJson(doc)) };
  const color = useColor(io);
  return { show: (doc) => io.out(renderStatus(doc, color)) };
}

export function renderStatus(doc: FleetStatus, color: boolean): string {
  const c = palette(color);
  const yes = (b: boolean) => (b ? c.ok('yes') : c.bad('no'));
  const lines: string[] = ['Webhooks:'];
  const hub = doc.hub;
  if (hub && !hub.reachable) lines.push(c.bad(`  hub not observed: ${hub.error ?? 'unknown error'}`));
  if (!hub || hub.webhooks.length === 0) lines.push('  (none declared)');
  else {
    const rows = hub.webhooks.map((w) => [
      w.name, w.id ?? '-', w.url ?? '(job)', w.enabled === null ? '-' : String(w.enabled),
      w.state === 'converged' ? yes(true) : `${yes(false)} ${c.dim(w.drift.join('; '))}`,
    ]);
    lines.push(indent(formatTable(['NAME', 'ID', 'URL', 'ENABLED', 'CONVERGED'], rows).text));
  }
  if (hub && hub.unmanaged_webhooks > 0) lines.push(c.dim(`  ${hub.unmanaged_webhooks} other webhook(s) on the account are not managed by this file`));
  lines.push('', 'Robots:');
  if (doc.robots.length === 0) lines.push('  (none declared)');
  else {
    const rows = doc.robots.map((r) => [
      r.name, r.url === null ? '-' : r.located ? `${r.url} ${c.dim('(mDNS)')}` : r.url, r.reachable ? yes(true) : `${yes(false)} ${c.dim(r.error ?? '')}`,
      daemonText(r), r.running ? `${r.running} (${r.app_state ?? '?'})` : '-', r.startup_app ?? '-', r.reachable ? yes(r.converged) : '-',
    ]);
    lines.push(indent(formatTable(['NAME', 'URL', 'REACHABLE', 'DAEMON', 'RUNNING', 'AT BOOT', 'CONVERGED'], rows).text));
    const who = doc.robots.map((r) => [r.name, r.robot_name ?? '-', r.hardware_id ?? '-', appsText(r)]);
    lines.push('', indent(formatTable(['NAME', 'ROBOT NAME', 'HARDWARE ID', 'INSTALLED'], who).text));
    // Why, in the robot's words: a crashed app's exception (issue 30.2), the agent's last failure on it, a
    // refusal, and each difference from robot.yaml, as the fleet page lists them (a held-back revision carries
    // the failed install's pip line, issue 30.1).
    for (const r of doc.robots) {
      if (r.app_error) lines.push(`  ${r.name}: ${r.running ?? 'the app'} crashed: ${c.bad(r.app_error)}`);
      if (r.reachable && r.error) lines.push(`  ${r.name}: ${c.bad(r.error)}`);
      if (r.reachable) for (const d of r.drift) lines.push(`  ${r.name}: ${c.dim(d)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `running 1.9.0 (robot.yaml: 1.10.0)`: the daemon's state and version, and the declared one while they differ. */
function daemonText(r: RobotStatus): string {
  const now = [r.daemon, r.daemon_version].filter((x) => x !== null).join(' ') || '-';
  if (r.daemon_update_to === null) return now;
  const declared = r.declared_daemon_version === 'latest' ? `latest, ${r.daemon_update_to}` : r.daemon_update_to;
  return `${now} (robot.yaml: ${declared})`;
}

/** `hello_app 58cf875, dev_app`: each installed app with its revision where known. */
function appsText(r: RobotStatus): string {
  return r.installed.map((a) => {
    const rev = r.revisions[a];
    return typeof rev === 'string' ? `${a} ${shortSha(rev)}` : a;
  }).join(', ') || '-';
}

export function statusJson(doc: FleetStatus): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
