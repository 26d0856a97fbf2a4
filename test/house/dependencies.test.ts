import t from 'tap';
import { join } from 'node:path';
import { importGraph, violations, folderCycles } from '../helpers/import-graph.js';
import { pageViolations, serverPathViolations, type PageServer } from '../helpers/page-graph.js';
import { dashboardFolders } from '../../runtime/daemon/dashboard-route.js';
import { fleetPageFolders } from '../../runtime/fleet-page/routes.js';
import { hubPageFolders } from '../../runtime/hub/routes/pages.js';

// The house rules of DESIGN.md as a check over the TypeScript import graph:
// cli → reconciler → drivers, state, schema; the state never imports schema
// (robot.yaml is read by schema/ alone); the reconciler imports no runtime
// but the receiver library; runtimes stand alone; only drivers/ and runtimes
// open network connections; lib/ at the bottom; no folder cycles.
// No exception list: a break is fixed where it is, not allowed here.

const graph = importGraph();
const PAGE_SERVERS: PageServer[] = [
  { runtime: 'runtime/daemon', folders: dashboardFolders() },
  { runtime: 'runtime/fleet-page', folders: fleetPageFolders() },
  { runtime: 'runtime/hub', folders: hubPageFolders() },
];

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

// The browser side: the pages a runtime serves load only its own files and
// lib/browser/ (the drawing the dashboard and the fleet page share).
t.test('no runtime serves or names files of another runtime', async (t) => {
  const broken = serverPathViolations();
  t.same(broken, [], broken.map((v) => `${v.from}: ${v.to}: ${v.rule}`).join('\n'));
});

t.test('every page loads only what its own server serves from its runtime or lib/browser', async (t) => {
  const broken = pageViolations(PAGE_SERVERS);
  t.same(broken, [], broken.map((v) => `${v.from} → ${v.to}: ${v.rule}`).join('\n'));
  t.ok(PAGE_SERVERS.every((s) => s.folders.length > 0), 'every page server declares its folders');
});

t.test('the page checks catch a page that reaches into another runtime', async (t) => {
  // A copy of the old layout: the fleet page's route serving the daemon's
  // dashboard folder, and its script importing the drawing from there.
  const dir = t.testdir({
    runtime: {
      daemon: { dashboard: { 'pose.js': 'export const x = 1;\n' } },
      'fleet-page': {
        'routes.ts': "const DRAWING_ROOT = packagePath('runtime', 'daemon', 'dashboard');\n",
        page: { 'robots.js': "import { x } from './robot/pose.js';\nimport { y } from './gone.js';\n", 'index.html': '<script type="module" src="/fleet/robots.js"></script>' },
      },
    },
    lib: { browser: {} },
  });
  t.same(serverPathViolations(dir).map((v) => v.from), ['runtime/fleet-page/routes.ts']);
  const servers = [
    { runtime: 'runtime/daemon', folders: [{ prefix: '/dashboard/', root: join(dir, 'runtime/daemon/dashboard') }] },
    { runtime: 'runtime/fleet-page', folders: [{ prefix: '/fleet/robot/', root: join(dir, 'runtime/daemon/dashboard') }, { prefix: '/fleet/', root: join(dir, 'runtime/fleet-page/page') }] },
  ];
  const found = pageViolations(servers, dir).map((v) => `${v.from} → ${v.to}`);
  t.same(found.sort(), ['runtime/fleet-page → runtime/daemon/dashboard', 'runtime/fleet-page/page/robots.js → ./gone.js'].sort());
  // Served from its own folder and the shared one, the same page passes.
  servers[1] = { runtime: 'runtime/fleet-page', folders: [{ prefix: '/fleet/robot/', root: join(dir, 'lib/browser') }, { prefix: '/fleet/', root: join(dir, 'runtime/fleet-page/page') }] };
  t.same(pageViolations(servers, dir).map((v) => v.to), ['./robot/pose.js', './gone.js'], 'what lib/browser lacks is named');
});

t.test('the state may not import schema, even for a type', async (t) => {
  const broken = violations({ files: ['state/spec.ts', 'schema/types.ts'], edges: [{ from: 'state/spec.ts', to: 'schema/types.ts', typeOnly: true }] });
  t.same(broken.map((v) => v.rule), ['state may not import schema']);
});
