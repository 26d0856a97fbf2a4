import t from 'tap';
import { importGraph, violations, folderCycles } from '../helpers/import-graph.js';

// The house rules of DESIGN.md as a check over the TypeScript import graph:
// cli → reconciler → drivers, state, schema; the reconciler imports no
// runtime but the receiver library; runtimes stand alone; only drivers/ and
// runtimes open network connections; lib/ at the bottom; no folder cycles.
// No exception list: a break is fixed where it is, not allowed here.

const graph = importGraph();

t.test('the graph was read', async (t) => {
  t.ok(graph.files.length > 100, `${graph.files.length} source files`);
  t.ok(graph.edges.length > 300, `${graph.edges.length} imports`);
});

t.test('every import follows the layer rules', async (t) => {
  const broken = violations(graph);
  t.same(broken, [], broken.map((v) => `${v.from} → ${v.to}: ${v.rule}`).join('\n'));
});

t.test('no two folders import each other, directly or through others', async (t) => {
  const cycles = folderCycles(graph);
  t.same(cycles, [], cycles.map((c) => c.join(' → ')).join('\n'));
});
