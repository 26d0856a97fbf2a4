import { hostname } from 'node:os';
import { MANUFACTURER, MODEL_LITE, type RobotTxt } from '../../../lib/wire/mdns.js';
import { interfacesFor } from './interfaces.js';
import { suggested, type CommandLine } from '../../../lib/command-line.js';
import { hostLabel, labelOf, type ServiceRecord } from './records.js';
import { MulticastUnavailable, releaseResponder, responderFor, type Responder } from './responder.js';

// One robot's mDNS advertisement, as the real daemon registers it
// (discovery.py MdnsServiceRegistration): `<robot_name>._reachy-mini._tcp`,
// the daemon's port, the host `<hostname>.local`, and the TXT keys of the
// real one, on the interfaces of the address the daemon listens on. Where
// multicast does not work it does without: one info line per interface and
// process, never an error. A rename withdraws the old instance and
// registers the new one (update_name()).

export interface RobotIdentity {
  name: string;
  port: number;
  version: string;
  /** unit_id: only when known, as the real daemon does. */
  hardwareId: string | null;
}

export interface Advertisement {
  /** Registered on at least one interface. */
  readonly advertised: boolean;
  rename(name: string): Promise<void>;
  /** Goodbye on every interface; resolves once sent. */
  withdraw(): Promise<void>;
}

// The simulated robot has no camera, microphone or speaker (routes/hardware.ts answers 501 for them): its caps say so.
const SIM_CAPS = 'motion,apps';

function txtFor(robot: RobotIdentity, address: string): RobotTxt {
  return {
    version: robot.version,
    robot_name: robot.name,
    ws_path: '/ws/sdk',
    address,
    model: MODEL_LITE,
    manufacturer: MANUFACTURER,
    caps: SIM_CAPS,
    api: 'rest+ws',
    ...(robot.hardwareId !== null ? { unit_id: robot.hardwareId } : {}),
  };
}

const said = new Set<string>();
function once(log: (line: string) => void, line: string): void {
  if (said.has(line)) return;
  said.add(line);
  log(line);
}

interface Registration {
  responder: Responder;
  service: ServiceRecord;
}

/** `command`: how the reader of `log` runs robotctl, for the discover hint (lib/command-line.ts suggested). */
export async function advertise(host: string, robot: RobotIdentity, log: (line: string) => void, command?: CommandLine): Promise<Advertisement> {
  const choice = interfacesFor(host);
  const regs: Registration[] = [];
  if ('none' in choice) once(log, `mDNS: not advertising (${choice.none}); reach the robot at its URL`);
  else {
    for (const iface of choice.interfaces) {
      let responder: Responder | null = null;
      try {
        responder = await responderFor(iface);
        const service: ServiceRecord = { label: responder.freeLabel(labelOf(robot.name)), port: robot.port, host: hostLabel(hostname()), address: iface.advertised, txt: txtFor(robot, iface.advertised) };
        await responder.add(service);
        regs.push({ responder, service });
        once(log, `mDNS: advertising _reachy-mini._tcp on ${iface.address} (${suggested(command, 'robots discover')} lists the robots)`);
      } catch (err) {
        if (responder) await releaseResponder(responder);
        if (!(err instanceof MulticastUnavailable)) throw err;
        once(log, `mDNS: not advertising on ${iface.address} (multicast unavailable: ${err.message}); reach the robot at its URL`);
      }
    }
  }
  let chain: Promise<void> = Promise.resolve();
  let current = robot;
  const serial = (work: () => Promise<void>): Promise<void> => (chain = chain.then(work, work));
  return {
    advertised: regs.length > 0,
    rename: (name) => serial(async () => {
      if (name === current.name) return;
      current = { ...current, name };
      for (const reg of regs) {
        await reg.responder.remove(reg.service);
        reg.service = { ...reg.service, label: reg.responder.freeLabel(labelOf(name)), txt: txtFor(current, reg.service.address) };
        await reg.responder.add(reg.service).catch(() => {});
      }
    }),
    withdraw: () => serial(async () => {
      for (const reg of regs.splice(0)) {
        await reg.responder.remove(reg.service);
        await releaseResponder(reg.responder);
      }
    }),
  };
}
