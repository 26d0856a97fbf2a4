'use strict';
// Preloaded (`node -r`) by bench/webassembly-tier.mjs into the runs it
// compares with: V8 flags set at run time are ignored, so the CLI's session
// leaves WebAssembly on V8's default tiers (lib/webassembly-tier.ts).
require('node:v8').setFlagsFromString = () => {};
