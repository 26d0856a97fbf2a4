import fjp from 'fast-json-patch';
import type { WebhookSpec } from '../schema/types.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { WebhookRecord } from '../state/types.js';
import type { FieldChange, PatchOp, WebhookAction } from './types.js';
import { sameSecret, webhookSpecHash } from './hash.js';
import { SENSITIVE, SENSITIVE_CHANGED } from '../lib/sensitive.js';
import { desiredView, normalForm, observedSpec } from './webhook-normal-form.js';

// Compare one owned webhook with its spec. Secrets are compared in clear here
// (the hub returns them) and enter the diff only as markers, so neither a
// clear value nor a hash of one can reach a plan.

export const JOB_ID_UNKNOWN = '(not reported by the hub)';

type Doc = Record<FieldChange['field'], unknown>;
const FIELDS: FieldChange['field'][] = ['url', 'jobId', 'watched', 'domains', 'secret'];

export function diffWebhook(name: string, spec: WebhookSpec, hook: HubWebhook, rec: WebhookRecord): WebhookAction[] {
  const form = normalForm(spec);
  const address = `webhooks.${name}`;
  const id = hook.id;
  const secretChanged = !sameSecret(hook.secret, spec.secret);
  const observed = normalForm(hook);
  const before: Doc = {
    url: hook.url ?? null,
    jobId: observedJobId(hook, spec, rec),
    watched: observed.watched,
    domains: observed.domains,
    secret: hook.secret ? SENSITIVE : null,
  };
  const after: Doc = {
    url: spec.url,
    jobId: spec.jobId,
    watched: form.watched,
    domains: form.domains,
    secret: spec.secret ? (secretChanged && hook.secret ? SENSITIVE_CHANGED : SENSITIVE) : null,
  };
  const changes = FIELDS
    .filter((f) => !sameField(before[f], after[f]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
  const out: WebhookAction[] = [];
  const toggle = spec.enabled === hook.disabled;
  if (toggle && !spec.enabled) out.push({ type: 'disable', address, name, id, reason: 'enabled on the hub, disabled in robot.yaml' });
  if (changes.length > 0) {
    out.push({
      type: 'update', address, name, id,
      desired: desiredView(spec, form),
      secretChanged,
      changes,
      patch: fjp.compare(before, after) as PatchOp[],
      reason: `${changes.map((c) => c.field).join(', ')} changed`,
    });
  }
  // Enabling comes last so the first deliveries already go to the new target.
  if (toggle && spec.enabled) out.push({ type: 'enable', address, name, id, reason: 'disabled on the hub, enabled in robot.yaml' });
  return out;
}

/** Field values are strings, null or lists of strings: compared without serialising them (every owned webhook, every plan). */
function sameField(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

export const CHANGED_OUTSIDE = 'changed outside robotctl since the state recorded it';

/**
 * Why an owned webhook's delete must be held back, or null when the hub
 * shows it as the state recorded it (its spec hash, with either enabled
 * value: a toggle keeps the recorded hash). A webhook edited on the hub, or
 * a record edited by hand to name another webhook, no longer matches.
 */
export function changedSinceRecorded(hook: HubWebhook, rec: WebhookRecord): string | null {
  // A job webhook whose job id the hub does not report cannot be hashed as recorded.
  if (hook.url === null && hook.jobSourceId === undefined) return `${CHANGED_OUTSIDE}, or so robotctl must assume: the hub does not report its job id`;
  const obs = observedSpec(hook, null);
  return [true, false].some((enabled) => webhookSpecHash({ ...obs, enabled }) === rec.specHash) ? null : CHANGED_OUTSIDE;
}

/**
 * The real hub may not echo jobSourceId. Then the state's spec hash decides:
 * if the observed webhook with the desired job id hashes to what we recorded,
 * the job id did not change since our last apply. (A state written before
 * spec hashes became v2 matches nothing here: one update re-sends the job id,
 * then the state holds a v2 hash.)
 */
function observedJobId(hook: HubWebhook, spec: WebhookSpec, rec: WebhookRecord): string | null {
  if (hook.jobSourceId !== undefined) return hook.jobSourceId;
  if (spec.jobId === null) return null;
  const obs = observedSpec(hook, spec.jobId);
  const recorded = [true, false].some((enabled) => webhookSpecHash({ ...obs, enabled }) === rec.specHash);
  return recorded ? spec.jobId : JOB_ID_UNKNOWN;
}
