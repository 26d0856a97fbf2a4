import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

// The project's import graph, read with the TypeScript parser (every import,
// export-from and dynamic import()), and the layer rules DESIGN.md draws.
// A unit is a top folder, except drivers/ and runtime/, whose sub-folders
// are units of their own (each driver and each runtime stands alone).

import { ROOT } from './root.js';

export { ROOT };
const SOURCE_FOLDERS = ['cli', 'reconciler', 'drivers', 'state', 'schema', 'runtime', 'lib'];

export interface Edge {
  from: string;
  /** Project-relative path of the imported file, or the package name. */
  to: string;
  typeOnly: boolean;
}

export interface Graph {
  files: string[];
  edges: Edge[];
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: { spec: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      const typeOnly = clause?.isTypeOnly === true
        || (clause !== undefined && clause.name === undefined && named !== null && named.length > 0 && named.every((e) => e.isTypeOnly));
      found.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteral(arg)) found.push({ spec: arg.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ spec: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

export function importGraph(root = ROOT): Graph {
  const files = SOURCE_FOLDERS.flatMap((f) => walk(join(root, f))).sort();
  const edges: Edge[] = [];
  for (const file of files) {
    const from = relative(root, file).split(sep).join('/');
    for (const { spec, typeOnly } of importsOf(file)) {
      const to = spec.startsWith('.')
        ? relative(root, resolve(dirname(file), spec)).split(sep).join('/').replace(/\.js$/, '.ts')
        : spec;
      edges.push({ from, to, typeOnly });
    }
  }
  return { files: files.map((f) => relative(root, f).split(sep).join('/')), edges };
}

export function unitOf(path: string): string {
  const parts = path.split('/');
  if ((parts[0] === 'drivers' || parts[0] === 'runtime') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0] as string;
}

const isLocal = (to: string): boolean => SOURCE_FOLDERS.includes(to.split('/')[0] ?? '') || to.startsWith('..') || to.startsWith('test/') || to.startsWith('bench/');

/** What each kind of unit may import, besides itself. */
function allowed(fromUnit: string, toUnit: string): boolean {
  const drivers = toUnit.startsWith('drivers/');
  if (fromUnit === 'lib') return false;
  if (fromUnit === 'schema') return toUnit === 'lib';
  if (fromUnit.startsWith('drivers/')) return toUnit === 'lib' || toUnit === 'schema';
  // The state never reads robot.yaml: the session hands it the `state:` block schema/ read.
  if (fromUnit === 'state') return toUnit === 'lib' || drivers;
  if (fromUnit === 'reconciler') return ['lib', 'schema', 'state', 'runtime/receiver'].includes(toUnit) || drivers;
  // A runtime may use a driver as a client (the daemon reads Spaces from the
  // hub), never its own: a server shares only lib/wire with its client.
  if (fromUnit.startsWith('runtime/')) return toUnit === 'lib' || (drivers && toUnit.slice(8) !== fromUnit.slice(8));
  if (fromUnit === 'cli') return SOURCE_FOLDERS.includes(toUnit.split('/')[0] ?? '');
  return false;
}

/** Packages that open connections to other hosts: only drivers and runtimes use them. */
const NETWORK_CLIENTS = new Set(['undici', 'pg', 'ws', 'multicast-dns', 'node:net', 'node:tls', 'node:https', 'node:dgram', 'node:http2']);

export interface Violation {
  from: string;
  to: string;
  rule: string;
}

export function violations(graph: Graph): Violation[] {
  const out: Violation[] = [];
  for (const e of graph.edges) {
    const fromUnit = unitOf(e.from);
    if (isLocal(e.to)) {
      const toUnit = unitOf(e.to);
      if (e.to.startsWith('..') || e.to.startsWith('test/') || e.to.startsWith('bench/')) {
        out.push({ ...e, rule: 'source code imports nothing outside the source folders' });
      } else if (toUnit !== fromUnit && !allowed(fromUnit, toUnit)) {
        out.push({ ...e, rule: `${fromUnit} may not import ${toUnit}` });
      }
    } else if (!e.typeOnly && NETWORK_CLIENTS.has(e.to) && !fromUnit.startsWith('drivers/') && !fromUnit.startsWith('runtime/')) {
      out.push({ ...e, rule: 'only drivers and runtimes use network client packages' });
    }
  }
  return out;
}

/** Cycles between units (Tarjan's strongly connected components of size > 1). */
export function folderCycles(graph: Graph): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of graph.edges) {
    if (!isLocal(e.to)) continue;
    const a = unitOf(e.from);
    const b = unitOf(e.to);
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    next.get(a)?.add(b);
  }
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const sccs: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (on.has(w)) {
        low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      for (;;) {
        const w = stack.pop() as string;
        on.delete(w);
        scc.push(w);
        if (w === v) break;
      }
      if (scc.length > 1) sccs.push(scc.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!idx.has(v)) strong(v);
  return sccs;
}

// `node --import tsx … import-graph.ts` is not needed: `npx tap` runs the test;
// this prints the breaks when run directly with tap's loader.
if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const g = importGraph();
  for (const v of violations(g)) console.log(`${v.from} → ${v.to}: ${v.rule}`);
  for (const c of folderCycles(g)) console.log(`cycle: ${c.join(' ↔ ')}`);
}
