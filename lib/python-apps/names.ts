// App names. The real assistant's rules (`reachy-mini-app-assistant create`,
// spec robot-daemon §5, its messages and its order) apply to a new app, then
// ours: the name becomes a Python package and module. The daemon applies them
// to every app name that reaches its filesystem (a version folder, a metadata
// file, a .pth file), but lets dashes through: Space names and robot.yaml app
// keys use them, the real daemon installs such Spaces, and they cannot leave a
// folder; a length cap and no control characters instead.

type Rule = [broken: (name: string) => boolean, message: string];

const MAX_LENGTH = 100;

const EMPTY: Rule = [(n) => n.trim() === '', 'App name cannot be empty.'];
const SPACES: Rule = [(n) => /\s/.test(n), 'App name cannot contain spaces.'];
const DASHES: Rule = [(n) => n.includes('-'), "App name cannot contain dashes ('-'). Please use underscores ('_') instead."];
const SLASHES: Rule = [(n) => /[/\\]/.test(n), "App name cannot contain slashes or backslashes ('/' or '\\\\')."];
const WILDCARDS: Rule = [(n) => /[*?.]/.test(n), "App name cannot contain wildcard characters ('*', '?', or '.')."];
const IDENTIFIER: Rule = [(n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n), 'App name must be a valid Python identifier: letters, digits and underscores, not starting with a digit.'];
const TOO_LONG: Rule = [(n) => n.length > MAX_LENGTH, `App name cannot be longer than ${MAX_LENGTH} characters.`];
// eslint-disable-next-line no-control-regex
const CONTROL: Rule = [(n) => /[\u0000-\u001f\u007f]/.test(n), 'App name cannot contain control characters.'];

function firstBroken(rules: Rule[], name: string): string | null {
  for (const [broken, message] of rules) if (broken(name)) return message;
  return null;
}

/** `app create`: the message of the first rule the new app's name breaks, or null when it is valid. */
export function validateAppName(name: string): string | null {
  return firstBroken([EMPTY, SPACES, DASHES, SLASHES, WILDCARDS, IDENTIFIER], name);
}

/** The daemon: why `name` cannot be an installed app's name, or null when it can. */
export function appNameProblem(name: string): string | null {
  return firstBroken([EMPTY, TOO_LONG, SPACES, SLASHES, WILDCARDS, CONTROL], name);
}

// Python's str.capitalize: first letter upper, the rest lower.
function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** `hello_app` → `HelloApp`, as the real assistant derives the class name. */
export function className(pkg: string): string {
  return pkg.split('_').map(capitalize).join('');
}

/** `hello_app` → `Hello App` (README title). */
export function displayTitle(pkg: string): string {
  return pkg.split('_').map(capitalize).join(' ');
}

/** A distribution name as pip compares them (PEP 503, with `_` for the separator): `Reachy-Mini` → `reachy_mini`. */
export function normName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '_');
}
