import type { Config } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import type { Observation, Plan } from '../../reconciler/types.js';
import { palette, table } from './format.js';

// `robotctl status`: what is, next to what robot.yaml wants. Secrets never
// appear (the view holds no webhook secret at all).

export const STATUS_FORMAT_VERSION = '1.0';

export interface WebhookRow {
  name: string;
  id: string | null;
  url: string | null;
  enabled: boolean | null;
  converged: boolean;
  reason: string | null;
}

export interface RobotRow {
  name: string;
  url: string;
  reachable: boolean;
  daemon: string | null;
  error: string | null;
  installed: string[];
  running: string | null;
  running_state: string | null;
  active: string | null;
  converged: boolean;
}

export interface StatusDoc {
  webhooks: WebhookRow[];
  robots: RobotRow[];
  unmanaged_webhooks: number;
  hub_error: string | null;
}

export function statusDoc(config: Config, observed: Observation, state: StateFile, p: Plan): StatusDoc {
  const hooks = observed.hub.ok ? observed.hub.webhooks : [];
  const pending = (prefix: string) => p.actions.filter((a) => a.address === prefix || a.address.startsWith(`${prefix}.`));
  const names = [...new Set([...Object.keys(config.webhooks), ...Object.keys(state.webhooks)])];
  const webhooks = names.map((name): WebhookRow => {
    const todo = pending(`webhooks.${name}`);
    const adopt = todo.find((a) => a.type === 'adopt');
    const id = state.webhooks[name]?.id ?? (adopt && 'id' in adopt ? adopt.id : null);
    const hook = hooks.find((h) => h.id === id);
    return {
      name, id: hook ? hook.id : null, url: hook?.url ?? config.webhooks[name]?.url ?? null,
      enabled: hook ? !hook.disabled : null,
      converged: observed.hub.ok && todo.length === 0,
      reason: todo.length > 0 ? todo.map((a) => `${a.type}: ${a.reason}`).join('; ') : observed.hub.ok ? null : 'hub not observed',
    };
  });
  const robots = Object.values(config.robots).map((r): RobotRow => {
    const o = observed.robots[r.name];
    const base = { name: r.name, url: r.url, active: r.active };
    if (!o || !o.reachable) {
      return { ...base, reachable: false, daemon: null, error: o && !o.reachable ? o.error : 'not observed', installed: [], running: null, running_state: null, converged: false };
    }
    return {
      ...base, reachable: true, daemon: o.daemon?.state ?? null, error: null,
      installed: o.installed.map((a) => a.name).sort(),
      running: o.current?.info.name ?? null, running_state: o.current?.state ?? null,
      converged: pending(`robots.${r.name}`).length === 0,
    };
  });
  return { webhooks, robots, unmanaged_webhooks: p.unmanaged.webhooks.length, hub_error: observed.hub.ok ? null : observed.hub.error };
}

export function renderStatus(doc: StatusDoc, color: boolean): string {
  const c = palette(color);
  const yes = (b: boolean) => (b ? c.ok('yes') : c.bad('no'));
  const lines: string[] = ['Webhooks:'];
  if (doc.hub_error) lines.push(c.bad(`  hub not reachable: ${doc.hub_error}`));
  if (doc.webhooks.length === 0) lines.push('  (none declared)');
  else {
    const rows = doc.webhooks.map((w) => [w.name, w.id ?? '-', w.url ?? '(job)', w.enabled === null ? '-' : String(w.enabled), w.converged ? yes(true) : `${yes(false)} ${c.dim(w.reason ?? '')}`]);
    lines.push(indent(table(['NAME', 'ID', 'URL', 'ENABLED', 'CONVERGED'], rows)));
  }
  if (doc.unmanaged_webhooks > 0) lines.push(c.dim(`  ${doc.unmanaged_webhooks} other webhook(s) on the account are not managed by this file`));
  lines.push('', 'Robots:');
  if (doc.robots.length === 0) lines.push('  (none declared)');
  else {
    const rows = doc.robots.map((r) => [
      r.name, r.url, r.reachable ? yes(true) : `${yes(false)} ${c.dim(r.error ?? '')}`, r.daemon ?? '-',
      r.running ? `${r.running} (${r.running_state ?? '?'})` : '-', r.installed.join(', ') || '-', r.reachable ? yes(r.converged) : '-',
    ]);
    lines.push(indent(table(['NAME', 'URL', 'REACHABLE', 'DAEMON', 'RUNNING', 'INSTALLED', 'CONVERGED'], rows)));
  }
  return `${lines.join('\n')}\n`;
}

export function statusJson(doc: StatusDoc): string {
  return `${JSON.stringify({ format_version: STATUS_FORMAT_VERSION, ...doc }, null, 2)}\n`;
}

function indent(text: string): string {
  return text.split('\n').map((l) => `  ${l}`).join('\n');
}
