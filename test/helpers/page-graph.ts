import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { ROOT, type Violation } from './import-graph.js';
import type { PageFolder } from '../../lib/page-assets.js';

// The browser side of the layer rule "runtimes stand alone": a page a runtime
// serves loads only files of that runtime or the shared browser folder
// (lib/browser/). Two checks, since a page can reach another runtime two ways:
// - the server: a runtime's TypeScript names no path inside another runtime
//   (packagePath('runtime', 'daemon', …), join(…, 'runtime/daemon'), or
//   new URL('../daemon/…', import.meta.url)), so no route can serve its files;
// - the page: every import of a page script and every script or stylesheet of
//   a page is a URL that its own server maps to a file of its declared folders.

/** A runtime and the folders its page server maps URLs to. */
export interface PageServer {
  runtime: string;
  folders: PageFolder[];
}

const SHARED_BROWSER = 'lib/browser';
const BROWSER_FILE = /\.(js|mjs|html|css)$/;

const posix = (path: string): string => path.split(sep).join('/');

function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, keep));
    else if (keep(entry.name)) out.push(full);
  }
  return out;
}

const runtimeOf = (path: string): string | null => {
  const parts = path.split('/');
  return parts[0] === 'runtime' && parts.length > 2 ? `runtime/${parts[1]}` : null;
};

/** Paths a runtime's TypeScript names, as project-relative paths or path fragments. */
function namedPaths(file: string, root: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments) {
      const literals = node.arguments.filter(ts.isStringLiteralLike).map((a) => a.text);
      const isUrl = ts.isNewExpression(node) && node.expression.getText(src) === 'URL'
        && node.arguments[1]?.getText(src) === 'import.meta.url';
      if (isUrl && literals[0]?.startsWith('.')) out.push(posix(relative(root, resolve(dirname(file), literals[0]))));
      else if (literals.length > 0) out.push(literals.join('/'));
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

/** A runtime's server code naming a path inside another runtime. */
export function serverPathViolations(root: string = ROOT): Violation[] {
  const runtimes = readdirSync(join(root, 'runtime'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  const out: Violation[] = [];
  for (const file of walk(join(root, 'runtime'), (n) => n.endsWith('.ts') && !n.endsWith('.d.ts'))) {
    const from = posix(relative(root, file));
    const own = runtimeOf(from);
    for (const named of namedPaths(file, root)) {
      const hit = /(?:^|\/)runtime\/([\w.-]+)(?:\/|$)/.exec(named);
      const other = hit?.[1];
      if (other && runtimes.includes(other) && `runtime/${other}` !== own) {
        out.push({ from, to: named, rule: `${own} may not name a path inside runtime/${other} (share browser files through ${SHARED_BROWSER}/)` });
      }
    }
  }
  return out;
}

/** The URLs a page script imports (static, re-export, dynamic) or a page loads (script src, stylesheet href). */
export function pageReferences(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.html')) {
    return [...text.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1] as string);
  }
  if (file.endsWith('.css')) return [...text.matchAll(/@import\s+(?:url\()?["']?([^"')\s;]+)/g)].map((m) => m[1] as string);
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

/** Where a served URL path leads on disk under a server's folders; null when none serves it. */
function served(path: string, folders: PageFolder[]): string | null {
  const folder = [...folders].sort((a, b) => b.prefix.length - a.prefix.length).find((f) => path.startsWith(f.prefix));
  if (!folder) return null;
  const file = resolve(folder.root, decodeURIComponent(path.slice(folder.prefix.length)));
  return file.startsWith(resolve(folder.root) + sep) ? file : null;
}

/**
 * For each page server: its folders lie in its own runtime or lib/browser;
 * every browser file under runtime/ lies in a folder its runtime declares
 * (so no page escapes this check); every URL its pages load maps, through the
 * same server's folders, to an existing file.
 */
export function pageViolations(servers: PageServer[], root: string = ROOT): Violation[] {
  const out: Violation[] = [];
  const inside = (dir: string, file: string): boolean => file === resolve(dir) || file.startsWith(resolve(dir) + sep);
  for (const { runtime, folders } of servers) {
    for (const { prefix, root: dir } of folders) {
      const at = posix(relative(root, dir));
      if (!inside(join(root, runtime), resolve(dir)) && !inside(join(root, SHARED_BROWSER), resolve(dir))) {
        out.push({ from: runtime, to: at, rule: `${runtime} serves ${prefix} from ${at}: a runtime serves only its own files and ${SHARED_BROWSER}/` });
      }
    }
  }
  for (const file of walk(join(root, 'runtime'), (n) => BROWSER_FILE.test(n))) {
    const from = posix(relative(root, file));
    const server = servers.find((s) => s.runtime === runtimeOf(from));
    if (!server?.folders.some((f) => inside(f.root, file))) out.push({ from, to: from, rule: 'a browser file lies in no page folder its runtime declares' });
  }
  for (const { runtime, folders } of servers) {
    for (const folder of folders) {
      for (const file of walk(folder.root, (n) => BROWSER_FILE.test(n))) {
        const rel = posix(relative(folder.root, file));
        const from = posix(relative(root, file));
        for (const ref of pageReferences(file)) {
          if (/^(data:|https?:|#)/.test(ref)) continue;
          const path = new URL(ref, `http://page${folder.prefix}${rel}`).pathname;
          const target = served(path, folders);
          if (target === null || !existsSync(target)) {
            out.push({ from, to: ref, rule: `${path} is no file that ${runtime} serves` });
          }
        }
      }
    }
  }
  return out;
}
