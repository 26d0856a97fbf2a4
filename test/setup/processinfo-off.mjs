// Loaded through NODE_OPTIONS (.taprc test-env), which Node runs before the
// command line's --import of tap's @tapjs/processinfo. That module tracks each
// test process for coverage and `tap --changed`, both unused here (.taprc
// turns coverage off): it records every file the process loads, and even with
// its recording off (its exclusion pattern below) loading it cost each test
// process about 0.15 s of CPU (its hook thread's modules, its child_process
// wrapping, its exit handlers), some 20 s of the suite. When tap says this
// process has no coverage to collect, tap-hooks.mjs gives its --import an
// empty module instead (and spares Node tap's source maps). A run with
// coverage on loads both as before.
// ts-cache.mjs drops this file from NODE_OPTIONS for the processes tests spawn.
import { register } from 'node:module';

process.env._TAPJS_PROCESSINFO_EXCLUDE_ = '/./';
if (process.env._TAPJS_PROCESSINFO_COVERAGE_ === '0') register('./tap-hooks.mjs', import.meta.url);
