import type { Config } from '../schema/types.js';
import type { Observation, Plan, SealedAction, SealedPlan } from './types.js';
import { desiredDigest, observationDigest } from './digest.js';
import { webhookSpecHash } from './hash.js';

// A plan sealed for the world outside this process: `plan --out` saves it
// and `plan --json` prints it. Sealing adds the digests of what the plan was
// made from (apply --plan refuses a plan whose world has changed since) and
// each webhook action's spec hash, the one apply records. The only place
// both are computed: a plan that is only shown never pays for the secret
// fingerprints' scrypt.

export function sealPlan(plan: Plan, desired: Config, observed: Observation): SealedPlan {
  const names = Object.keys(desired.webhooks);
  const hashes = names.map((name) => webhookSpecHash(desired.webhooks[name] as Config['webhooks'][string]));
  const byName = new Map(names.map((name, i) => [name, hashes[i] as string]));
  const actions = plan.actions.map((a): SealedAction => {
    if ('robot' in a || !('name' in a) || a.type === 'delete') return a;
    const specHash = byName.get(a.name);
    if (specHash === undefined) throw new Error(`internal error: ${a.address} is planned but not declared`);
    return { ...a, specHash };
  });
  // The keys in the order of the saved document (format 2.1).
  return {
    format_version: plan.format_version,
    actions,
    unmanaged: plan.unmanaged,
    heldDeletes: plan.heldDeletes,
    unreachable: plan.unreachable,
    hubError: plan.hubError,
    located: plan.located,
    refused: plan.refused,
    observedDigest: observationDigest(observed, desired, plan.secretSalt),
    desiredDigest: desiredDigest(desired, plan.secretSalt, hashes),
    secretSalt: plan.secretSalt,
    targets: plan.targets,
    summary: plan.summary,
    heldBack: plan.heldBack,
  };
}
