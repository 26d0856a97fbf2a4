import { WATCHED_TYPES, watchedTypeBefore } from '../lib/wire/hub.js';
import { didYouMean } from './did-you-mean.js';
import { entries, exactlyOne, httpUrlProblem, record, type Data } from './rules-util.js';
import { fleetFindings } from './rules-fleet.js';
import type { Finding } from './yaml-doc.js';

// The rules a JSON Schema cannot say (or cannot say clearly). They run on the
// substituted data next to ajv, so one pass reports every problem of the file.

export function ruleFindings(data: unknown, env: NodeJS.ProcessEnv): Finding[] {
  const root = record(data);
  if (!root) return [];
  return [...hubFindings(root, env), ...webhookFindings(root), ...appFindings(root), ...fleetFindings(root)];
}

function hubFindings(root: Data, env: NodeJS.ProcessEnv): Finding[] {
  const found: Finding[] = [];
  const endpoint = record(root.hub)?.endpoint;
  if (typeof endpoint === 'string') {
    const problem = httpUrlProblem(endpoint, 'https://huggingface.co');
    if (problem) found.push({ path: ['hub', 'endpoint'], message: problem });
  }
  if (env.HF_ENDPOINT) {
    const problem = httpUrlProblem(env.HF_ENDPOINT, 'https://huggingface.co');
    if (problem) found.push({ path: [], message: `environment variable HF_ENDPOINT ${problem}` });
  }
  return found;
}

// Each webhook's url or job_id, its URL and its short watched items; the
// longer paths are made only for a webhook that has a problem.
function webhookFindings(root: Data): Finding[] {
  const found: Finding[] = [];
  const webhooks = record(root.webhooks);
  if (!webhooks) return found;
  for (const name of Object.keys(webhooks)) {
    const w = record(webhooks[name]);
    if (!w) continue;
    const exclusive = exactlyOne(w, 'webhooks', name, 'url', 'job_id');
    if (exclusive) found.push(exclusive);
    if (typeof w.url === 'string') {
      const problem = httpUrlProblem(w.url, 'https://example.org/webhooks/redeploy');
      if (problem) found.push({ path: ['webhooks', name, 'url'], message: problem });
    }
    if (!Array.isArray(w.watched)) continue;
    for (const [i, item] of (w.watched as unknown[]).entries()) {
      const problem = typeof item === 'string' ? shortWatchedProblem(item) : undefined;
      if (problem) found.push({ path: ['webhooks', name, 'watched', i], message: problem });
    }
  }
  return found;
}

/** Why a short `type:name` watched item is wrong, if it is. */
export function shortWatchedProblem(item: string): string | undefined {
  const colon = item.indexOf(':');
  // The usual item (`space:alice/app`), settled without slicing it: a known
  // type, then a printable ASCII character, so the name is not blank.
  const next = item.charCodeAt(colon + 1);
  if (next > 32 && next < 127 && watchedTypeBefore(item, colon)) return undefined;
  if (colon < 0) return `'${item}' must be type:name, e.g. space:alice/hello_app or user:alice`;
  const type = item.slice(0, colon);
  if (!(WATCHED_TYPES as readonly string[]).includes(type)) {
    const hint = didYouMean(type, WATCHED_TYPES);
    return `unknown watched type '${type}'${hint || `: use ${WATCHED_TYPES.join(', ')}`}`;
  }
  if (item.slice(colon + 1).trim() === '') return `'${item}' has no name after '${type}:'`;
  return undefined;
}

function appFindings(root: Data): Finding[] {
  const found: Finding[] = [];
  for (const [name, app] of entries(root.apps)) {
    const exclusive = exactlyOne(app, 'apps', name, 'source', 'path');
    if (exclusive) found.push(exclusive);
  }
  return found;
}

