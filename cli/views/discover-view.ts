import { useColor, type Io } from '../../lib/io.js';
import { Document, isScalar, type YAMLMap } from 'yaml';
import { SERVICE_TYPE } from '../../lib/wire/mdns.js';
import type { BrowseResult } from '../../drivers/discovery/types.js';
import type { KeyedRobot } from '../commands/robots/robot-keys.js';
import { duration, palette } from './format.js';
import { formatTable } from './table.js';
import { commandLine } from './command-line.js';
import type { CommandLine } from '../../lib/command-line.js';

// `robotctl robots discover`: the robots that answered, as a table, a JSON
// document (format_version), or a `robots:` block to paste into robot.yaml.
// When none answered, stdout holds only what the format needs (an empty JSON
// list, nothing for YAML) and stderr says what to check.

export const DISCOVER_FORMAT_VERSION = '1.0';

export type DiscoverFormat = 'human' | 'json' | 'yaml';

export interface DiscoverView {
  show(found: BrowseResult, keyed: KeyedRobot[], timeoutMs: number): void;
}

export function newDiscoverView(format: DiscoverFormat, io: Io): DiscoverView {
  return {
    show(found, keyed, timeoutMs) {
      if (format === 'json') io.out(discoverJson(found, keyed, timeoutMs));
      else if (format === 'yaml') { if (keyed.length > 0) io.out(robotsYaml(keyed)); }
      else if (keyed.length > 0) io.out(discoverTable(found, keyed, useColor(io), commandLine(io)));
      for (const u of found.unavailable) io.err(`Note: not browsed on ${u.address} (multicast unavailable: ${u.reason})\n`);
      if (keyed.length === 0) io.err(noneFound(found, timeoutMs));
    },
  };
}

export function discoverTable(found: BrowseResult, keyed: KeyedRobot[], color: boolean, command: CommandLine): string {
  const c = palette(color);
  const rows = keyed.map(({ robot: r, sharedName }) => [sharedName ? `${r.name} ${c.warn('*')}` : r.name, r.url, r.version ?? '-', r.hardwareId ?? '-', r.model ?? '-']);
  const lines = [
    `${keyed.length} robot${keyed.length === 1 ? '' : 's'} answered (mDNS ${SERVICE_TYPE.replace(/\.local$/, '')}, ${duration(found.elapsedMs)} on ${found.interfaces.join(', ')}):`,
    '',
    formatTable(['NAME', 'URL', 'VERSION', 'HARDWARE ID', 'MODEL'], rows, { keep: [1, 3] }).text,
  ];
  if (keyed.some((k) => k.sharedName)) {
    lines.push('', `${c.warn('*')} robots that answer with the same name: robot.yaml tells them apart by hardware_id (--yaml keys them NAME-<id>); rename one with POST /api/daemon/robot-name {"name": …}.`);
  }
  lines.push('', `Next: ${command('robots discover --yaml')}   (a robots: block to paste into robot.yaml)`);
  return `${lines.join('\n')}\n`;
}

export function discoverJson(found: BrowseResult, keyed: KeyedRobot[], timeoutMs: number): string {
  const robots = keyed.map(({ key, robot: r, sharedName }) => ({
    name: r.name, url: r.url, version: r.version, hardware_id: r.hardwareId, model: r.model, shared_name: sharedName, yaml_key: key,
    instance: r.instance, host: r.host, port: r.port, address: r.address, address_from: r.addressFrom, txt: r.txt,
  }));
  return `${JSON.stringify({ format_version: DISCOVER_FORMAT_VERSION, service: SERVICE_TYPE, timeout_ms: timeoutMs, interfaces: found.interfaces, unavailable: found.unavailable, robots }, null, 2)}\n`;
}

/** `robots:` with each robot's url and hardware_id, a comment where its key is not its name. */
export function robotsYaml(keyed: KeyedRobot[]): string {
  const doc = new Document({ robots: Object.fromEntries(keyed.map(({ key, robot }) => [key, { url: robot.url, ...(robot.hardwareId ? { hardware_id: robot.hardwareId } : {}) }])) });
  const robots = doc.get('robots', true) as YAMLMap;
  keyed.forEach(({ note }, i) => {
    const pair = robots.items[i];
    if (note && pair && isScalar(pair.key)) pair.key.commentBefore = ` ${note}`;
  });
  doc.commentBefore = ' robotctl robots discover: paste under robot.yaml\'s top level (or merge into its robots:)';
  return doc.toString({ lineWidth: 0 });
}

function noneFound(found: BrowseResult, timeoutMs: number): string {
  return [
    `No Reachy Mini answered within ${duration(timeoutMs)} (mDNS ${SERVICE_TYPE.replace(/\.local$/, '')} on ${found.interfaces.join(', ') || 'no interface'}). Check that:`,
    '  - the robot is on and its daemon runs (its dashboard answers at http://<robot address>:8000/);',
    '  - this machine is on the same network as the robot (same Wi-Fi or LAN, same subnet): mDNS does not cross routers or VPNs;',
    '  - the network passes multicast: guest Wi-Fi, "client isolation" and some mesh routers block it;',
    '  - the firewall lets UDP port 5353 in (mDNS), e.g. `sudo ufw allow 5353/udp`;',
    '  - or try a longer --timeout. A robot can always be declared by its address: robots: { NAME: { url: http://<ip>:8000 } }.',
    '',
  ].join('\n');
}
