import { inPrivateNetwork } from '../helpers/netns.js';

// `robotctl robots discover` against `robotctl daemon --sim --robots 3`, over
// real multicast in a private network namespace (test/helpers/netns.ts):
// the cases are in robots-discover-cases.ts, run inside it.

if (await inPrivateNetwork(import.meta.url)) await import('./robots-discover-cases.js');
