import { declaredRequirements } from './deps.js';
import { normName } from '../../../lib/python-apps/names.js';
import { installStandIn, modeFlags, pip, REAL_SDK, type PipContext } from './install-deps.js';
import { sdkIsStandIn } from '../../../lib/python-apps/sdk.js';

// What the real daemon's update does to an app's dependencies: `pip install
// --force-reinstall <app>` reinstalls every one of them, reachy-mini
// included (spec §9: a redeploy by update took 17.5 s on the real daemon).
// Offline, the stand-in SDK is rebuilt and reinstalled; a dependency pip
// cannot find without an index is named in the job log, as installs do.

export async function reinstallDependencies(ctx: PipContext, app: string, versionDir: string): Promise<void> {
  let wanted = await declaredRequirements(versionDir);
  if (!ctx.mode.online && wanted.some((r) => normName(r.name) === REAL_SDK) && sdkIsStandIn()) {
    await installStandIn(ctx, true);
    wanted = wanted.filter((r) => normName(r.name) !== REAL_SDK);
  }
  if (wanted.length === 0) return;
  try {
    await pip(ctx, ['install', '--force-reinstall', ...modeFlags(ctx.mode), ...new Set(wanted.map((r) => r.spec))]);
  } catch (err) {
    if (ctx.mode.online) throw err;
    ctx.log(`Warning: '${app}' depends on ${wanted.map((r) => r.name).join(', ')}, not reinstalled (offline update without an index)`);
  }
}
