import { hostname, networkInterfaces } from 'node:os';

// DNS rebinding: a web page on evil.example makes its own name resolve to
// this machine, then talks to our servers as "same origin" (the Origin check
// of cross-site.ts passes, since Origin and Host both name evil.example).
// Only the Host header gives it away. A server answers only under a loopback
// name or address, this machine's own names and addresses, or a name the
// user allowed (--allowed-host); every server calls `hostGuard` once and asks
// it on each request, WebSocket upgrades included. Pure but for the machine's
// names, which are read again (at most once a second) when a Host misses.

/** Addresses and names that always mean this machine and that a page on another site cannot take. */
const LOOPBACK_NAMES = new Set(['localhost', '::1', '0.0.0.0', '::']);
/** How long the machine's own names are trusted before a miss reads them again (DHCP, a new interface). */
const OWN_NAMES_TTL_MS = 1000;
/** Host header values already allowed, so the common case is one Set lookup. */
const MEMO_MAX = 64;

export interface HostGuard {
  /** Why the request must be refused (a one-line message naming the Host and the flag), or null. */
  refusal(host: string | undefined): string | null;
}

/** What a Host header may hold: a name, an IPv4 address or a bracketed IPv6 one, and a port (no zone, userinfo or path). */
const HOST_CHARS = /^[a-z0-9._~[\]:-]+$/i;

/**
 * The host part of a Host header as the WHATWG URL parser reads it (what a
 * browser sent): lowercased, IPv4 in dotted form, IPv6 compressed and without
 * brackets, no port, no final dot; null when malformed.
 */
export function hostName(header: string): string | null {
  if (!HOST_CHARS.test(header)) return null;
  let host: string;
  try {
    host = new URL(`http://${header}`).hostname;
  } catch {
    return null;
  }
  if (host.startsWith('[')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host === '' ? null : host;
}

/** 127.0.0.0/8, ::1, their IPv4-mapped forms, localhost and the unspecified addresses (names as hostName gives them). */
export function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || /^127\.\d+\.\d+\.\d+$/.test(name) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(name);
}

/** This machine's names and addresses now: its host name, `<name>.local` (mDNS), every interface's address. */
export function ownNames(): Set<string> {
  const names = new Set<string>();
  const host = hostname().toLowerCase();
  if (host) {
    names.add(host);
    const label = host.split('.', 1)[0] ?? host;
    names.add(`${label}.local`);
    // The name the daemon's mDNS records give (runtime/daemon/mdns/records.ts hostLabel, as the real daemon).
    names.add(`${label.replace(/[^a-z0-9-]/g, '-').replace(/^-+|-+$/g, '')}.local`);
  }
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      const name = hostName(a.address.includes(':') ? `[${a.address.split('%', 1)[0] ?? ''}]` : a.address);
      if (name !== null) names.add(name);
    }
  }
  return names;
}

const LABEL = '[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?';
const HOST_NAME = new RegExp(`^${LABEL}(\\.${LABEL})*\\.?$`, 'i');

/**
 * Checks a `--allowed-host` value: a host name or an address (IPv6 with or
 * without brackets), no scheme, no port. Returns it normalised as hostName
 * does, or throws a message naming the value.
 */
export function parseAllowedHost(value: string): string {
  const inner = /^\[(.*)\]$/.exec(value)?.[1] ?? value;
  const name = inner.includes(':') ? hostName(`[${inner}]`) : HOST_NAME.test(value) ? hostName(value) : null;
  if (name !== null) return name;
  throw new Error(`--allowed-host takes a host name or an address, without scheme or port (like robot.example.org or 192.168.1.20), got '${value.slice(0, 100)}'`);
}

export function hostGuard(allowed: readonly string[] = [], now: () => number = Date.now): HostGuard {
  const extra = new Set(allowed.map((h) => parseAllowedHost(h)));
  const memo = new Set<string>();
  let own = ownNames();
  let ownAt = now();
  const allowedName = (name: string): boolean => {
    if (isLoopbackName(name) || extra.has(name) || own.has(name)) return true;
    if (now() - ownAt < OWN_NAMES_TTL_MS) return false;
    own = ownNames();
    ownAt = now();
    return own.has(name);
  };
  return {
    refusal(host) {
      // Browsers always send Host; a client without one cannot be a rebinding page.
      if (host === undefined || host === '' || memo.has(host)) return null;
      const name = hostName(host);
      if (name !== null && allowedName(name)) {
        if (memo.size >= MEMO_MAX) memo.clear();
        memo.add(host);
        return null;
      }
      const shown = host.slice(0, 100);
      const flag = name !== null ? `--allowed-host ${name}` : '--allowed-host NAME';
      return `Host '${shown}' is not allowed: this server answers only under localhost, this machine's names and addresses, and the names given with --allowed-host (DNS rebinding protection). If this is your server's name, restart it with ${flag}.`;
    },
  };
}
