import { inPrivateNetwork } from '../helpers/netns.js';

// `robotctl hub` without --port serves on 7870, as `up`'s hub does: a fixed
// port, so the cases run in a private network namespace (test/helpers/netns.ts).

if (await inPrivateNetwork(import.meta.url)) await import('./cli-hub-port-cases.js');
