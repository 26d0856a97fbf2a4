import { inPrivateNetwork } from '../helpers/netns.js';

// `robotctl daemon --sim --robots N` with one robot's port taken advertises
// no robot and says so in one line; with the ports free, every robot is
// advertised. Real multicast and fixed ports, so in a private network
// namespace (test/helpers/netns.ts): the cases are in fleet-port-taken-cases.ts.

if (await inPrivateNetwork(import.meta.url)) await import('./fleet-port-taken-cases.js');
