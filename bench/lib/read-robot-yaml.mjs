// Child of bench/fast-yaml-reader.mjs: reads one robot.yaml into a Config the
// way the loader does, by the fast reader (`fast`: schema/load.ts as it is)
// or by the yaml library alone (`yaml`: the loader's position path, which
// reads every file the fast reader does not), once, in this fresh process, as
// a command reads it. Prints the milliseconds the read took.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const [mode, file] = process.argv.slice(2);
const env = { WEBHOOK_SECRET: 'bench-secret' };
const { loadConfig } = await import('../../dist/schema/load.js');
const { positionRead } = await import('../../dist/schema/read-paths.js');
const { buildConfig } = await import('../../dist/schema/build-config.js');
const abs = resolve(file);
const t0 = performance.now();
if (mode === 'fast') {
  if (!loadConfig(abs, env).ok) throw new Error(`${file} does not load`);
} else {
  const read = positionRead(readFileSync(abs, 'utf8'), env);
  if ('problems' in read || read.findings.length > 0) throw new Error(`${file} does not load`);
  buildConfig(read.data, abs, dirname(abs), env);
}
process.stdout.write(String(performance.now() - t0));
