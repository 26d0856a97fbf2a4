// How a Reachy Mini daemon advertises itself over mDNS / DNS-SD
// (reachy_mini/utils/discovery.py; spec/robot-daemon.md §9): what the
// simulated daemon advertises and the discovery driver reads. Both sides
// import it from here, so neither depends on the other.

/** The DNS-SD service type, without the trailing dot DNS libraries drop. */
export const SERVICE_TYPE = '_reachy-mini._tcp.local';

/** DNS-SD's meta-query: which service types a host offers (RFC 6763 §9). */
export const SERVICE_TYPES_QUERY = '_services._dns-sd._udp.local';

export const MDNS_PORT = 5353;
export const MDNS_GROUP = '224.0.0.251';

/** The TXT keys the real daemon sets, in its order; `unit_id` only when the hardware id is known. */
export const TXT_KEYS = ['version', 'robot_name', 'ws_path', 'address', 'model', 'manufacturer', 'caps', 'api', 'unit_id'] as const;
export type TxtKey = (typeof TXT_KEYS)[number];

export const MODEL_LITE = 'Reachy Mini Lite';
export const MODEL_WIRELESS = 'Reachy Mini Wireless';
export const MANUFACTURER = 'Pollen Robotics';

/** The TXT record as key → value (values are UTF-8 text). */
export type RobotTxt = Partial<Record<TxtKey, string>> & Record<string, string>;

/** `robot_name` as an instance label: `desk` → `desk._reachy-mini._tcp.local`. */
export function instanceName(label: string): string {
  return `${label}.${SERVICE_TYPE}`;
}

/** The label of an instance name of our service type, or null for another name. */
export function instanceLabel(name: string): string | null {
  const suffix = `.${SERVICE_TYPE}`;
  return name.toLowerCase().endsWith(suffix) ? name.slice(0, -suffix.length) : null;
}

/** TXT strings (`key=value`) in the given order. */
export function encodeTxt(txt: RobotTxt): string[] {
  return Object.entries(txt).map(([k, v]) => `${k}=${v}`);
}

/** A TXT record's strings as key → value (RFC 6763 §6.4: first `=` splits; a key without `=` is a flag, empty value; first occurrence wins). */
export function decodeTxt(data: readonly (Buffer | string)[]): RobotTxt {
  const out: RobotTxt = {};
  for (const item of data) {
    const s = typeof item === 'string' ? item : item.toString('utf8');
    if (s === '') continue;
    const eq = s.indexOf('=');
    const key = (eq < 0 ? s : s.slice(0, eq)).toLowerCase();
    if (key === '' || key in out) continue;
    out[key] = eq < 0 ? '' : s.slice(eq + 1);
  }
  return out;
}
