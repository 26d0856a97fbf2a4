// The daemon tests' helpers now live in test/helpers; this module re-exports
// them so a test written against this path keeps importing.

export { BODIES, PRELUDE, makeApp, makeBundle, treeFiles } from '../helpers/python-apps.js';
export { alive, groupAlive } from '../helpers/processes.js';
export { closePair, daemonPair, type Pair } from '../helpers/servers.js';
export { until } from '../helpers/wait.js';
