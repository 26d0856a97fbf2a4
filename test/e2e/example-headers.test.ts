import { inPrivateNetwork } from '../helpers/netns.js';

// Each example's header commands, run as written: the files' own ports (7870,
// 7860, 8000-8003) are fixed, so the cases run in a private network namespace
// (test/helpers/netns.ts).

if (await inPrivateNetwork(import.meta.url)) await import('./example-headers-cases.js');
