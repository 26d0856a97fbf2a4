import type { DiscoveredRobot } from '../../../drivers/discovery/types.js';

// robot.yaml keys for discovered robots: each robot's name made a valid key
// (schema: a letter or _, then letters, digits, _ and -; at most 64). Robots
// that answer with the same name (every wireless robot starts as
// `reachy_mini`) get a suffix from their hardware id, its shortest prefix of
// at least 4 digits that tells them apart, else from their address. A note
// says why a key is not exactly the robot's name.

export interface KeyedRobot {
  key: string;
  robot: DiscoveredRobot;
  sharedName: boolean;
  /** Why the key differs from the robot's name, or that it has no hardware id; null when there is nothing to say. */
  note: string | null;
}

const MAX_KEY = 64;
const MIN_SUFFIX = 4;

/** A robot name as a valid robot.yaml key: `Reachy de Paul` → `Reachy-de-Paul`, `2nd bot` → `robot-2nd-bot`. */
export function keyOf(name: string): string {
  let key = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '');
  if (!/^[A-Za-z_]/.test(key)) key = key ? `robot-${key}` : 'robot';
  return key.slice(0, MAX_KEY);
}

/** The shortest prefix (at least MIN_SUFFIX long) that gives every id its own. */
function distinctPrefixes(ids: string[]): number {
  for (let n = MIN_SUFFIX; n < Math.max(MIN_SUFFIX, ...ids.map((i) => i.length)); n++) {
    if (new Set(ids.map((i) => i.slice(0, n))).size === ids.length) return n;
  }
  return Math.max(MIN_SUFFIX, ...ids.map((i) => i.length));
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_KEY - suffix.length - 1)}-${suffix}`;
}

export function robotKeys(robots: readonly DiscoveredRobot[]): KeyedRobot[] {
  const byName = new Map<string, DiscoveredRobot[]>();
  for (const r of robots) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  const used = new Set<string>();
  const out: KeyedRobot[] = [];
  for (const [name, group] of byName) {
    const shared = group.length > 1;
    const ids = group.flatMap((r) => (r.hardwareId ? [r.hardwareId] : []));
    const n = distinctPrefixes([...new Set(ids)]);
    for (const robot of group) {
      const base = keyOf(name);
      let key = !shared ? base : withSuffix(base, robot.hardwareId ? robot.hardwareId.slice(0, n) : keyOf(`${robot.address}-${robot.port}`).replace(/^robot-/, ''));
      for (let i = 2; used.has(key); i++) key = withSuffix(base, String(i));
      used.add(key);
      const notes = [
        ...(shared ? [`answers as '${name}', like ${group.length - 1} other robot${group.length > 2 ? 's' : ''}: give each its own name`] : []),
        ...(!shared && key !== name ? [`answers as '${name}'`] : []),
        ...(robot.hardwareId ? [] : ['no hardware id advertised (unit_id)']),
      ];
      out.push({ key, robot, sharedName: shared, note: notes.length > 0 ? notes.join('; ') : null });
    }
  }
  return out;
}
