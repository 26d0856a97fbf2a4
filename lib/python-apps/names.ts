// App name rules of the real assistant (spec robot-daemon §5), in its order.
const RULES: [(name: string) => boolean, string][] = [
  [(n) => n.trim() === '', 'App name cannot be empty.'],
  [(n) => n.includes(' '), 'App name cannot contain spaces.'],
  [(n) => n.includes('-'), "App name cannot contain dashes ('-'). Please use underscores ('_') instead."],
  [(n) => n.includes('/') || n.includes('\\'), "App name cannot contain slashes or backslashes ('/' or '\\\\')."],
  [(n) => /[*?.]/.test(n), "App name cannot contain wildcard characters ('*', '?', or '.')."],
  // Ours, after the real ones: the name becomes a Python package and module.
  [(n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n), 'App name must be a valid Python identifier: letters, digits and underscores, not starting with a digit.'],
];

/** The message of the first rule the name breaks, or null when it is valid. */
export function validateAppName(name: string): string | null {
  for (const [broken, message] of RULES) if (broken(name)) return message;
  return null;
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
