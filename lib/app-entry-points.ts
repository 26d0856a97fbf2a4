import { parse, TomlError } from 'smol-toml';

// The daemon names an app by its `reachy_mini_apps` entry point (spec §9
// Names), which a Space declares in its pyproject.toml:
//   [project.entry-points."reachy_mini_apps"]
//   hello_world = "hello_world.main:HelloWorld"
// Read here from the file's text, so the planner knows the name before
// anything is installed. A problem is a one-line message naming `where`.

export const APPS_GROUP = 'reachy_mini_apps';

export class PyprojectProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PyprojectProblem';
  }
}

function table(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : null;
}

/** The parsed document, or a PyprojectProblem naming `where`, the line and column. */
export function parsePyproject(text: string, where: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const what = err.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? 'invalid';
    throw new PyprojectProblem(`${where}:${err.line}:${err.column}: not valid TOML: ${what}`);
  }
}

export interface AppDeclaration {
  /** Entry-point names of group reachy_mini_apps, sorted (none: empty). */
  names: string[];
  /** `[project] name`, which `robotctl app publish` names the Space after; null when absent. */
  project: string | null;
}

export function appDeclaration(text: string, where: string): AppDeclaration {
  const project = table(parsePyproject(text, where).project);
  const group = table(table(project?.['entry-points'])?.[APPS_GROUP]);
  if (!group && Array.isArray(project?.dynamic) && project.dynamic.includes('entry-points')) {
    throw new PyprojectProblem(`${where}: the entry points are dynamic (project.dynamic), so robotctl cannot read them before an install`);
  }
  const name = project?.name;
  return { names: Object.keys(group ?? {}).sort(), project: typeof name === 'string' && name !== '' ? name : null };
}
