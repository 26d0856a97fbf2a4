import type { Plan } from './types.js';
import { PlanError } from './plan-error.js';

// The JSON view of a plan, also the saved-plan file (`plan --out`). Its
// reader refuses versions it does not know instead of guessing.

export const PLAN_FORMAT_VERSION = '1.0';

export function planToJson(plan: Plan): string {
  return `${JSON.stringify({ ...plan, format_version: PLAN_FORMAT_VERSION }, null, 2)}\n`;
}

export function parsePlan(text: string, source = 'the plan file'): Plan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new PlanError(`${source} is not valid JSON: make a new one with \`robotctl plan --out\``);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new PlanError(`${source} is not a robotctl plan: make a new one with \`robotctl plan --out\``);
  }
  const rec = data as Record<string, unknown>;
  if (rec.format_version !== PLAN_FORMAT_VERSION) {
    throw new PlanError(
      `${source} has format_version ${JSON.stringify(rec.format_version)}, this robotctl reads ${PLAN_FORMAT_VERSION}: ` +
      'make a new plan with this version of robotctl',
    );
  }
  const ok = Array.isArray(rec.actions) && typeof rec.observedDigest === 'string' && typeof rec.desiredDigest === 'string'
    && typeof rec.summary === 'object' && typeof rec.unmanaged === 'object' && Array.isArray(rec.unreachable);
  if (!ok) throw new PlanError(`${source} is damaged (missing actions, digests or summary): make a new one with \`robotctl plan --out\``);
  return data as Plan;
}
