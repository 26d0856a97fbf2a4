import type { CommandLine } from '../lib/command-line.js';
import type { AppRecord } from '../state/types.js';
import type { WebhookDomain } from '../lib/wire/hub.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { AppInfo, AppStatus, DaemonStatus } from '../lib/wire/daemon.js';

// The data that flows observe → plan → execute → report. A Plan is plain JSON:
// it can be saved, printed, diffed and re-read (format_version guards that).

export type HubObservation = { ok: true; webhooks: HubWebhook[] } | { ok: false; error: string };

export type RobotObservation =
  /** `daemon` is null when observe did not need it (see observe.ts). */
  | {
    reachable: true; daemon: DaemonStatus | null; installed: AppInfo[]; current: AppStatus | null;
    /** The newest release the daemon can update to, read only where robot.yaml asks for `latest`; null when it cannot tell. */
    latestDaemon?: string | null;
    /** GET /api/apps/startup-app, read when robot.yaml manages it (or for status); undefined when not read. */
    startupApp?: string | null;
  }
  | { reachable: false; error: string };

/** Where a robot's daemon is reached: its declared url, or the one mDNS found by its hardware id. */
export interface RobotAddress {
  name: string;
  url: string;
}

/**
 * What an app's pyproject.toml declares in group `reachy_mini_apps` (its
 * Space's at the observed revision, or its `path:` folder's); `error` when it
 * was read and cannot tell (invalid TOML, no file). Absent when it could not
 * be read at all (the hub unreachable): the state's record, else the key.
 */
export type EntryPointsFound = { names: string[]; project?: string | null } | { error: string };

export interface SpaceObservation {
  sha: string | null;
  /**
   * What Pollen's dashboard sends as an install's `extra` for this Space: the
   * hub's Space info (id, author, private, card data…) without its file list
   * (issue 30.4). Absent when the Space could not be read.
   */
  extra?: Record<string, unknown>;
}

export interface Observation {
  hub: HubObservation;
  /** Latest revision of each Space that is an app source, keyed by `owner/name`. */
  spaces: Record<string, SpaceObservation>;
  robots: Record<string, RobotObservation>;
  /** By app key (issue 30.3): the name the daemon will know each declared app by. */
  entryPoints?: Record<string, EntryPointsFound>;
  /** Where mDNS found the robots robot.yaml declares by hardware_id alone (robot name → daemon URL). */
  located?: Record<string, string>;
}

/** A webhook as the plan shows and the executor sends it: never the secret itself. */
export interface WebhookView {
  url: string | null;
  jobId: string | null;
  /** `type:name`, sorted. */
  watched: string[];
  /** Sorted; empty means every domain. */
  domains: WebhookDomain[];
  hasSecret: boolean;
  enabled: boolean;
}

/** One changed field, values already redacted (secrets become `(sensitive…)`). */
export interface FieldChange {
  field: 'url' | 'jobId' | 'watched' | 'domains' | 'secret';
  before: unknown;
  after: unknown;
}

/** An RFC 6902 operation (from fast-json-patch) over the redacted WebhookView. */
export interface PatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

interface Base {
  /** `webhooks.NAME` or `robots.NAME.apps.APP`. */
  address: string;
  /** For display only: never steers the executor. */
  reason: string;
}

interface WebhookBase extends Base {
  name: string;
}

/**
 * The hub creates webhooks enabled and the new id is unknown at plan time, so
 * `desired.enabled === false` means: create, then disable the new webhook.
 */
export interface CreateAction extends WebhookBase {
  type: 'create';
  /** The secret is not in the plan: the executor re-reads it from the Config by name. */
  desired: WebhookView;
}

export interface AdoptAction extends WebhookBase {
  type: 'adopt';
  id: string;
}

export interface UpdateAction extends WebhookBase {
  type: 'update';
  id: string;
  desired: WebhookView;
  /** The executor sends the secret only when it changed. */
  secretChanged: boolean;
  changes: FieldChange[];
  patch: PatchOp[];
}

export interface ToggleAction extends WebhookBase {
  type: 'enable' | 'disable';
  id: string;
}

export interface DeleteAction extends Base {
  type: 'delete';
  name: string;
  id: string;
}

export type WebhookAction = CreateAction | AdoptAction | UpdateAction | ToggleAction | DeleteAction;

interface RobotBase extends Base {
  robot: string;
}

interface AppBase extends RobotBase {
  /** The app's key in robot.yaml (its address and its state record), or the observed name of an app robot.yaml does not know. */
  app: string;
  /** The name the daemon knows the app by, its entry point (issue 30.3); absent (plans made before): `app`. */
  name?: string;
}

export interface InstallAction extends AppBase {
  type: 'install';
  /** The body for the daemon's install route. */
  info: AppInfo;
  /** Recorded in the state on success. */
  record: AppRecord;
}

export interface UpdateAppAction extends AppBase {
  type: 'update_app';
  info: AppInfo;
  record: AppRecord;
  /**
   * `source`: the app comes from elsewhere now (remove + install); `revision`:
   * its Space moved on; `rollback`: back to what the robot ran before a failed
   * rollout (made by the executor, execute/rollback.ts, never by the planner).
   */
  cause: 'source' | 'revision' | 'rollback';
  /** What was installed, as far as we know (display and dry-run). */
  previous: AppRecord;
}

export interface RemoveAction extends AppBase {
  type: 'remove';
}

/**
 * An app found on the robot whose state record is an install's intent (the
 * install was asked for, its outcome never recorded: a kill): it is this
 * file's, as robot.yaml asks for it; recorded as installed, nothing is sent.
 */
export interface AdoptAppAction extends AppBase {
  type: 'adopt_app';
  /** Recorded in the state. */
  record: AppRecord;
}

export interface StartAction extends AppBase {
  type: 'start';
}

/**
 * Stops whatever runs on the robot; `app` names what was observed running
 * (or crashed: an app in `error` blocks starts). An app already `stopping`
 * gets no stop: a start that follows may need to wait for it (daemon 400).
 */
export interface StopAction extends AppBase {
  type: 'stop';
}

/**
 * Sets the app the robot starts at boot (issue 30.5; PUT /api/apps/startup-app).
 * `app` is robot.yaml's key and `name` the daemon's; both null clear it.
 * Address `robots.NAME.startup_app`.
 */
export interface StartupAppAction extends RobotBase {
  type: 'startup_app';
  app: string | null;
  name: string | null;
}

/** The actions on one app of a robot. */
export type AppAction = InstallAction | UpdateAppAction | AdoptAppAction | RemoveAction | StartAction | StopAction;

/**
 * The robot's daemon to another release through its update API (address
 * `robots.NAME.daemon`): the job, the daemon's restart, its version checked.
 * The restart stops the running app, so it comes before the app actions.
 */
export interface UpdateDaemonAction extends RobotBase {
  type: 'update_daemon';
  /** The version it runs now (observed; null when the daemon did not say). */
  from: string | null;
  /** The release it is updated to (`latest` already resolved). */
  to: string;
}

/** The robot's display name (`robots.NAME.robot_name`), through POST /api/daemon/robot-name. */
export interface RenameRobotAction extends RobotBase {
  type: 'rename_robot';
  from: string | null;
  to: string;
}

export type DaemonAction = UpdateDaemonAction | RenameRobotAction;
export type RobotAction = AppAction | StartupAppAction | DaemonAction;
export type Action = WebhookAction | RobotAction;
export type ActionType = Action['type'];

export const WEBHOOK_ACTION_TYPES = ['create', 'adopt', 'update', 'enable', 'disable', 'delete'] as const;
export const APP_ACTION_TYPES = ['install', 'update_app', 'adopt_app', 'remove', 'start', 'stop'] as const;
export const DAEMON_ACTION_TYPES = ['update_daemon', 'rename_robot'] as const;
export const ROBOT_ACTION_TYPES = [...DAEMON_ACTION_TYPES, ...APP_ACTION_TYPES, 'startup_app'] as const;

export interface UnmanagedWebhook {
  id: string;
  url: string | null;
  watched: string[];
}

/**
 * A delete the planner holds back: the webhook the state records for a name
 * robot.yaml dropped no longer looks as the state recorded it (its spec hash
 * differs: edited on the hub, or the record was edited by hand to name
 * another webhook). Reported, never done, unless the plan is made with
 * `force` (then it is a delete action).
 */
export interface HeldDelete {
  address: string;
  name: string;
  id: string;
  reason: string;
}

export interface PlanSummary {
  create: number;
  adopt: number;
  /** update + enable + disable */
  update: number;
  delete: number;
  /** install + update_app + remove + start + stop + startup_app + update_daemon + rename_robot */
  robot: number;
  total: number;
}

export interface Plan {
  format_version: '2.1';
  actions: Action[];
  unmanaged: { webhooks: UnmanagedWebhook[]; apps: { robot: string; app: string }[] };
  /** Deletes not planned because what they would delete changed outside robotctl (`force` plans them). */
  heldDeletes: HeldDelete[];
  /** Robot names that could not be observed: no actions were planned for them. */
  unreachable: string[];
  /** Why the hub could not be observed (no webhook actions were planned), else null. */
  hubError: string | null;
  /** Robots robot.yaml declares by hardware_id alone, and the URL mDNS found each at: shown, and where apply acts. */
  located: Record<string, string>;
  /** Robots that are not the robot robot.yaml names (another hardware id, or none): nothing planned for them. */
  refused: RefusedRobot[];
  /** Random per state (its lineage) or per saved plan: keys the secret fingerprints in a sealed plan's digests. */
  secretSalt: string;
  /** Targets the plan was limited to; empty = everything. */
  targets: string[];
  summary: PlanSummary;
  /** Revisions not installed (or started) because a rollout failed with them (plan-held.ts); drift for diff. */
  heldBack: HeldBack[];
}

/** A revision the plan leaves out on one robot: a rollout failed with it (state/rollouts.ts). */
export interface HeldBack {
  robot: string;
  app: string;
  sha: string;
  /** What failed, and in which rollout. */
  reason: string;
  rollout: string;
}

/** An action as a sealed plan holds it: a webhook action but a delete carries the spec hash apply records for it. */
export type SealedAction = Action & { specHash?: string };

/**
 * A plan as `plan --out` saves it and `plan --json` prints it: the plan with
 * the digests of what it was made from, and each webhook action's spec hash
 * (webhookSpecHash of the desired spec). Made by sealPlan (seal.ts) alone.
 */
export interface SealedPlan extends Plan {
  actions: SealedAction[];
  /** Hash of the observation the plan was made from: a saved plan is rejected when stale. */
  observedDigest: string;
  /** Hash of the desired configuration (secrets only as fingerprints keyed by `secretSalt`). */
  desiredDigest: string;
}

export interface RefusedRobot {
  robot: string;
  /** Names both ids, e.g. `robot.yaml says hardware_id a1…; the robot at http://… answers b2…`. */
  reason: string;
}

export interface PlanOptions {
  /** `webhooks.NAME` or `robots.NAME`; empty or absent = everything. */
  targets?: string[];
  allowEmpty?: boolean;
  /**
   * Apps to reinstall where installed even though they look current: a path
   * app whose folder changed (the agent's watcher knows; the daemon cannot
   * tell). Planned as update_app (cause `source`: remove + install) and a
   * restart where the app is active.
   */
  forceUpdate?: string[];
  /** Keys the secret fingerprints in a sealed plan's digests; the state's lineage when absent. */
  secretSalt?: string;
  /** How the user runs robotctl, for the commands a refusal suggests (lib/command-line.ts suggested). */
  command?: CommandLine;
  /** Plan the held deletes too (`apply --force`): the state's record is taken as proof of ownership. */
  force?: boolean;
}

/** What the daemon's routes call an app action's app. */
export function daemonName(a: AppAction): string {
  return a.name ?? a.app;
}

export function isWebhookAction(a: Action): a is WebhookAction {
  return (WEBHOOK_ACTION_TYPES as readonly string[]).includes(a.type);
}

export function isRobotAction(a: Action): a is RobotAction {
  return !isWebhookAction(a);
}

/** An action on one of a robot's apps (it names the app). */
export function isAppAction(a: Action): a is AppAction {
  return (APP_ACTION_TYPES as readonly string[]).includes(a.type);
}

/** A robot action in words: `install hello_app`, `update daemon 1.8.3 → 1.10.0`, `rename robot 'a' → 'b'`. */
export function robotActionText(a: RobotAction): string {
  if (a.type === 'update_daemon') return `update daemon ${a.from ?? '(unknown)'} → ${a.to}`;
  if (a.type === 'rename_robot') return `rename robot ${a.from === null ? '(unknown)' : `'${a.from}'`} → '${a.to}'`;
  if (a.type === 'startup_app') return `startup_app ${a.app ?? '(none)'}`;
  return `${a.type} ${a.app}`;
}
