import type { StateFile } from '../../state/types.js';
import type { Plan } from '../types.js';
import { UserError } from '../../lib/errors.js';

// An action may name only what the state records for its address (issue
// 29.1): an update, toggle or delete names the webhook id the state records
// for that name (or the one adopted for it earlier in the same plan); an
// adopt names a webhook no other name records; a remove names an app the
// state records on that robot; an adopt_app one whose record is an intent.
// The planner makes only such actions; this is the last check before
// anything is sent, whatever handed the plan to apply().

/** The first action that names something the state does not record for it, worded; null when none does. */
export function foreignReference(plan: Plan, state: StateFile): string | null {
  const owner = new Map<string, string>();
  for (const [name, rec] of Object.entries(state.webhooks)) if (!owner.has(rec.id)) owner.set(rec.id, name);
  const adopted = new Map<string, string>();
  for (const a of plan.actions) {
    switch (a.type) {
      case 'adopt': {
        const other = owner.get(a.id);
        if (other !== undefined && other !== a.name) return `${a.type} ${a.address} names webhook ${a.id}, which the state records for webhooks.${other}`;
        adopted.set(a.name, a.id);
        break;
      }
      case 'update':
      case 'enable':
      case 'disable':
      case 'delete': {
        const recorded = Object.prototype.hasOwnProperty.call(state.webhooks, a.name) ? state.webhooks[a.name]?.id : undefined;
        if (a.id !== recorded && a.id !== adopted.get(a.name)) {
          return `${a.type} ${a.address} names webhook ${a.id}, but the state records ${recorded === undefined ? 'no webhook' : `webhook ${recorded}`} for it`;
        }
        break;
      }
      case 'remove':
      case 'adopt_app': {
        const rec = state.robots[a.robot]?.apps[a.app];
        if (!rec) return `${a.type} ${a.address}: the state records no app ${a.app} on robot ${a.robot}`;
        if (a.type === 'adopt_app' && rec.intent !== 'install') return `${a.type} ${a.address}: the state records no install of ${a.app} to adopt`;
        break;
      }
      default:
        break;
    }
  }
  return null;
}

/** Refuses the whole plan, nothing sent, when an action names what the state does not record for it. */
export function refuseForeign(plan: Plan, state: StateFile): void {
  const foreign = foreignReference(plan, state);
  if (foreign !== null) throw new UserError(`refusing the plan: ${foreign}; robotctl acts only on what the state records as this file's (nothing was sent)`);
}
