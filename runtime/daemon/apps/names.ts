import { resolve, sep } from 'node:path';
import { HttpError } from '../errors.js';

// Every app name that reaches the filesystem (a version folder, a metadata
// file, a .pth file) passes the real app-name rule first
// (`reachy-mini-app-assistant create`, spec robot-daemon.md §5), and every
// path built from one is resolved and checked to stay under its root.
// Dashes stay allowed: Space names and robot.yaml app keys use them, and the
// real daemon installs such Spaces; they cannot leave a folder.

const MAX_LENGTH = 100;

/** Why `name` is not a valid app name, or null when it is. */
export function appNameProblem(name: string): string | null {
  if (name.length === 0) return 'App name cannot be empty.';
  if (name.length > MAX_LENGTH) return `App name cannot be longer than ${MAX_LENGTH} characters.`;
  if (/\s/.test(name)) return 'App name cannot contain spaces.';
  if (/[/\\]/.test(name)) return "App name cannot contain slashes or backslashes ('/' or '\\').";
  if (/[*?.]/.test(name)) return "App name cannot contain wildcard characters ('*', '?', or '.').";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'App name cannot contain control characters.';
  return null;
}

/** A 400 whose detail names the refused value and the rule it breaks. */
export function checkAppName(name: string, field = 'app_name'): string {
  const problem = appNameProblem(name);
  if (problem) throw new HttpError(400, `Invalid ${field} ${JSON.stringify(name)}: ${problem}`);
  return name;
}

/** root/…parts, refused unless it resolves strictly inside root. */
export function confined(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const full = resolve(base, ...parts);
  if (!full.startsWith(base + sep)) throw new HttpError(400, `Refusing a path outside ${base}: ${JSON.stringify(parts.join('/'))}`);
  return full;
}
