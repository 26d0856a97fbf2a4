import { inPrivateNetwork } from '../helpers/netns.js';

// Robots as managed resources end to end (issue 31's "done when"), over real
// multicast in a private network namespace (test/helpers/netns.ts): the cases
// are in robots-fleet-cases.ts, run inside it.

if (await inPrivateNetwork(import.meta.url)) await import('./robots-fleet-cases.js');
