import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packagePath } from '../../lib/paths.js';
import { className, displayTitle } from '../../lib/python-apps/names.js';

export const TEMPLATES = ['default', 'conversation'] as const;
export type TemplateName = (typeof TEMPLATES)[number];

// Templates ship as plain files under sdk/python/templates (in the npm
// package's `files`). A template other than `default` holds only the files it
// changes or adds; the rest comes from `default`.
const ROOT = packagePath('sdk', 'python', 'templates');

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.name === '__pycache__') return [];
    return e.isDirectory() ? walk(full) : [full];
  });
}

/** Template file path (relative, `/`-separated) → absolute source, overlay winning. */
function templateFiles(template: TemplateName): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of template === 'default' ? ['default'] : ['default', template]) {
    const dir = join(ROOT, name);
    for (const file of walk(dir)) files.set(relative(dir, file).split('\\').join('/'), file);
  }
  return files;
}

function targetPath(rel: string, pkg: string): string {
  // npm drops files named .gitignore from packages, so it ships as `gitignore`.
  const renamed = rel === 'gitignore' ? '.gitignore' : rel;
  return renamed.replace(/^__package__\//, `${pkg}/`);
}

function render(text: string, pkg: string): string {
  return text
    .replaceAll('{{app_name}}', pkg)
    .replaceAll('{{class_name}}', className(pkg))
    .replaceAll('{{title}}', displayTitle(pkg));
}

/** Write the app's files under `base` (which must not exist yet). Returns the relative paths written. */
export function writeTemplate(template: TemplateName, pkg: string, base: string): string[] {
  const written: string[] = [];
  mkdirSync(base);
  for (const [rel, source] of [...templateFiles(template)].sort(([a], [b]) => a.localeCompare(b))) {
    const target = join(base, targetPath(rel, pkg));
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, render(readFileSync(source, 'utf8'), pkg));
    written.push(relative(base, target));
  }
  return written;
}
