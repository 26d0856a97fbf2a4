import { inPrivateNetwork } from '../helpers/netns.js';

// Issue 29.3: a daemon bound to 0.0.0.0 (`robotctl daemon --host 0.0.0.0`)
// answers under the machine's own LAN address, and still refuses a rebound
// name. In a private network namespace (test/helpers/netns.ts), which no other
// machine reaches, loopback gets an address of its own that the daemon finds
// among the machine's interfaces: the cases are in host-lan-address-cases.ts.

if (await inPrivateNetwork(import.meta.url)) await import('./host-lan-address-cases.js');
