import { inPrivateNetwork } from '../helpers/netns.js';

// `robotctl up` with a robot's port taken once its preflight has passed
// advertises no robot over mDNS and refuses in the words it always did; with
// the ports free, every robot is advertised. Real multicast and fixed ports,
// so in a private network namespace (test/helpers/netns.ts): the cases are in
// up-robot-port-taken-cases.ts.

if (await inPrivateNetwork(import.meta.url)) await import('./up-robot-port-taken-cases.js');
