import type { RobotTxt } from '../../lib/wire/mdns.js';

// What the discovery driver finds: Reachy Mini daemons that answer for
// `_reachy-mini._tcp` over mDNS, each as the real daemon describes itself in
// its TXT record (spec/robot-daemon.md §9).

export interface DiscoveredRobot {
  /** TXT `robot_name`, else the instance label. Several robots may share one (every wireless robot starts as `reachy_mini`). */
  name: string;
  /** `http://<address>:<port>`: where robotctl reaches its daemon. */
  url: string;
  /** TXT `version`: the daemon's reachy_mini version. */
  version: string | null;
  /** TXT `unit_id`: the robot's hardware id (GET /api/daemon/hardware-id); null when the daemon did not say. */
  hardwareId: string | null;
  /** TXT `model`, e.g. `Reachy Mini Wireless`. */
  model: string | null;
  /** The DNS-SD instance, e.g. `desk._reachy-mini._tcp.local`. */
  instance: string;
  /** The SRV target, e.g. `reachy-mini.local`: the same on every wireless robot, so not used for the URL when better is known. */
  host: string;
  port: number;
  address: string;
  /** Where `address` came from: the TXT `address` (preferred, as the real daemon intends), the host's A record, or the answer's sender. */
  addressFrom: 'txt' | 'a-record' | 'sender';
  txt: RobotTxt;
}

export interface BrowseOptions {
  /** How long to listen for answers (default 3 s). */
  timeoutMs?: number;
  /** IPv4 addresses of the interfaces to browse on (default: every IPv4 interface). */
  interfaces?: string[];
  signal?: AbortSignal;
  /** Each robot as soon as it is complete (and again when an answer changes it). */
  onRobot?: (robot: DiscoveredRobot) => void;
  /** Stop early once this holds for the robots found so far (e.g. a hardware id was found). */
  until?: (robots: DiscoveredRobot[]) => boolean;
}

export interface BrowseResult {
  robots: DiscoveredRobot[];
  /** Interfaces browsed on. */
  interfaces: string[];
  /** Interfaces where multicast could not be used, and why. */
  unavailable: { address: string; reason: string }[];
  /** How long the browse took (it ends early when `until` holds). */
  elapsedMs: number;
}
