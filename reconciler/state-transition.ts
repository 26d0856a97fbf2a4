import type { Action } from './types.js';
import type { ActionResult, StateFile } from '../state/types.js';

// What one successful action means for the state file. Pure: the executor
// calls it after each success and writes the result atomically.

export function nextState(state: StateFile, action: Action, result: ActionResult = {}): StateFile {
  const next: StateFile = { ...state, webhooks: { ...state.webhooks }, robots: { ...state.robots } };
  switch (action.type) {
    case 'create': {
      if (!result.webhookId) throw new Error(`nextState: create of ${action.address} succeeded without a webhook id`);
      next.webhooks[action.name] = { id: result.webhookId, specHash: action.specHash };
      break;
    }
    case 'adopt':
    case 'update':
      next.webhooks[action.name] = { id: action.id, specHash: action.specHash };
      break;
    case 'enable':
    case 'disable': {
      // A toggle proves nothing about the other fields: keep the recorded hash.
      const prev = state.webhooks[action.name];
      next.webhooks[action.name] = { id: action.id, specHash: prev?.id === action.id ? prev.specHash : action.specHash };
      break;
    }
    case 'delete':
      delete next.webhooks[action.name];
      break;
    case 'install':
    case 'update_app': {
      const apps = { ...(state.robots[action.robot]?.apps ?? {}) };
      apps[action.app] = { ...action.record, sha: result.sha !== undefined ? result.sha : action.record.sha };
      next.robots[action.robot] = { apps };
      break;
    }
    case 'remove': {
      const apps = { ...(state.robots[action.robot]?.apps ?? {}) };
      delete apps[action.app];
      next.robots[action.robot] = { apps };
      break;
    }
    case 'start':
    case 'stop':
      return state;
  }
  return next;
}
