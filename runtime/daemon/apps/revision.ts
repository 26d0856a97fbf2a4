import type { AppInfo } from '../../../lib/wire/daemon.js';
import { INSTALL_REVISION_KEY } from '../../../lib/wire/daemon.js';

// robotctl's extension (lib/wire/daemon.ts): an install request whose
// `extra.revision` names a commit installs the Space at that commit instead
// of its head (robotctl rolls a robot back with it). The key is taken out of
// the request before it is kept as the app's metadata: `installed_sha`
// tells what was installed.

/** The requested revision (a commit sha or a branch), or null for the head. */
export function requestedRevision(info: AppInfo): string | null {
  const rev = info.extra?.[INSTALL_REVISION_KEY];
  return typeof rev === 'string' && /^[0-9A-Za-z._/-]{1,200}$/.test(rev) ? rev : null;
}

export function withoutRevision(info: AppInfo): AppInfo {
  if (!info.extra || !(INSTALL_REVISION_KEY in info.extra)) return info;
  const { [INSTALL_REVISION_KEY]: _dropped, ...extra } = info.extra;
  return { ...info, extra };
}
