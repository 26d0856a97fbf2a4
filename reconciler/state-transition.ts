import type { WebhookSpec } from '../schema/types.js';
import type { Action } from './types.js';
import type { ActionResult, StateFile } from '../state/types.js';
import { applyChange, type StateChange } from '../state/journal.js';
import { webhookSpecHash } from './hash.js';

// What one successful action means for the state file. Pure: the executor
// calls it after each success and hands the change to the state's journal.
// A webhook's record keeps the hash of the spec robot.yaml declares for it
// (`desired`, the specs the plan was made from).

/** The one record a successful action sets or removes; null for start/stop and the daemon's own (nothing the state keeps). */
export function changeOf(state: StateFile, action: Action, desired: Record<string, WebhookSpec>, result: ActionResult = {}): StateChange | null {
  switch (action.type) {
    case 'create':
      if (!result.webhookId) throw new Error(`nextState: create of ${action.address} succeeded without a webhook id`);
      return { webhook: action.name, record: { id: result.webhookId, specHash: specHashOf(desired, action.name) } };
    case 'adopt':
    case 'update':
      return { webhook: action.name, record: { id: action.id, specHash: specHashOf(desired, action.name) } };
    case 'enable':
    case 'disable': {
      // A toggle proves nothing about the other fields: keep the recorded hash.
      const prev = state.webhooks[action.name];
      return { webhook: action.name, record: { id: action.id, specHash: prev?.id === action.id ? prev.specHash : specHashOf(desired, action.name) } };
    }
    case 'delete':
      return { webhook: action.name, record: null };
    case 'install':
    case 'update_app':
      return { robot: action.robot, app: action.app, record: { ...action.record, sha: result.sha !== undefined ? result.sha : action.record.sha } };
    case 'adopt_app':
      return { robot: action.robot, app: action.app, record: action.record };
    case 'remove':
      return { robot: action.robot, app: action.app, record: null };
    case 'start':
    case 'stop':
    case 'startup_app':
    case 'update_daemon': // the daemon says its version and name: nothing for the state to keep
    case 'rename_robot':
      return null;
  }
}

/**
 * The record an action stores before it is sent, or null: an install's
 * intent (no revision: nothing is installed yet), so that an app this file
 * asked for is known as its own even when the install's outcome is never
 * recorded (kill -9). The install's success replaces it (changeOf).
 */
export function intentOf(action: Action): StateChange | null {
  if (action.type !== 'install') return null;
  return { robot: action.robot, app: action.app, record: { ...action.record, sha: null, intent: 'install' } };
}

export function nextState(state: StateFile, action: Action, desired: Record<string, WebhookSpec>, result: ActionResult = {}): StateFile {
  const change = changeOf(state, action, desired, result);
  return change ? applyChange(state, change) : state;
}

function specHashOf(desired: Record<string, WebhookSpec>, name: string): string {
  const spec = desired[name];
  if (!spec) throw new Error(`internal error: webhooks.${name} was acted on but is not declared`);
  return webhookSpecHash(spec);
}
