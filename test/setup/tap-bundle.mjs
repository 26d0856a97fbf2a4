// tap as one ES module, built by esbuild in tap's `before` script and loaded
// by every test process in place of tap's ~210 modules (tap-hooks.mjs
// resolves `tap` to it). Each module a test process loaded went through the
// module hooks' thread (ts-cache-hooks.mjs, tap-hooks.mjs) and back: importing
// tap cost about 0.45 s of CPU with the hooks on and 0.3 s without; the
// bundle about 0.15 s (measured, one small test file, ten runs).
// The path ends in node_modules/@tapjs/ on purpose: tap leaves frames of files
// under such a folder out of a failure's stack and location, as it does for
// its own packages, so a failing assert still names the test's .ts line. The
// bundle requires its optional packages (react-element-to-jsx-string…) from
// the project's node_modules, the next one up.
import { mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { root } from './ts-transpile.mjs';

export const TAP_BUNDLE = join(root, 'node_modules', '.cache', 'robotctl-tap', 'node_modules', '@tapjs', 'tap.mjs');

/** Bundles the installed tap (with the plugins `tap build` compiled in) into TAP_BUNDLE. */
export async function bundleTap() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  mkdirSync(dirname(TAP_BUNDLE), { recursive: true });
  const tmp = `${TAP_BUNDLE}.${process.pid}.tmp`;
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['tap'],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Some of tap's packages are CommonJS and call require().
    banner: { js: "import { createRequire as __tapBundleRequire } from 'node:module'; const require = __tapBundleRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // Another tap run may be reading it: replace it whole.
  renameSync(tmp, TAP_BUNDLE);
}
