// The first apply of N webhooks (everything to create) end to end, as a user
// runs it, against the embedded hub: the state in a local file and in a hub
// dataset repo. Wall time, CPU, peak memory, ms per webhook and the ratio of
// ms per webhook from one size to the next (flat = O(1) per action; the
// state's per-action cost used to grow with the state).
// Target: 3,000 webhooks < 4 s with a local state. Build first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, measureCli } from './lib/measure.mjs';
import { figure } from './lib/figures.mjs';
import { SECRET_ENV, webhooksYaml } from './lib/robot-yaml.mjs';

const { startHub } = await import('../dist/runtime/hub/server.js');
const user = { name: 'bench', token: 'hf_bench_token_apply' };
const RUNS = [
  { backend: 'local', sizes: [300, 1_000, 3_000] },
  { backend: 'hub', sizes: [300, 1_000] },
];
const TARGET_MS = { 'local 3000': 4000 };

const dir = mkdtempSync(join(tmpdir(), 'robotctl-bench-apply-'));
try {
  console.log(`apply-first (${load()})`);
  for (const { backend, sizes } of RUNS) {
    let previous;
    for (const n of sizes) {
      const file = join(dir, `robot-${backend}-${n}.yaml`);
      writeFileSync(file, webhooksYaml(n));
      const hub = await startHub({ users: [user], log: () => {} });
      try {
        const env = { ...SECRET_ENV, HF_ENDPOINT: hub.url, HF_TOKEN: user.token };
        const state = backend === 'local' ? join(dir, `state-${n}.json`) : `hub:${user.name}/robotctl-state`;
        const u = await measureCli(['apply', '-f', file, '--yes', '--state', state], { env });
        if (u.code !== 0) throw new Error(`apply of ${n} webhooks (${backend} state) exited ${u.code}`);
        const created = (await (await fetch(`${hub.url}/api/settings/webhooks`, { headers: { authorization: `Bearer ${user.token}` } })).json()).length;
        if (created !== n) throw new Error(`apply of ${n} webhooks left ${created} on the hub`);
        const per = u.wallMs / n;
        const target = TARGET_MS[`${backend} ${n}`];
        const name = `first apply ${n.toLocaleString('en')} webhooks, ${backend} state`;
        figure({
          name: `${name}, wall`, value: Math.round(u.wallMs), unit: 'ms',
          ...(target ? { target: `< ${target}`, ok: u.wallMs < target } : {}),
          note: `cpu ${u.cpuMs.toFixed(0)} ms, peak ${u.maxRssMb.toFixed(0)} MB`,
        });
        // O(1) per action: ms per webhook does not grow with the size.
        figure({
          name: `${name}, per webhook`, value: per, unit: 'ms',
          ...(previous ? { target: `≤ ${previous.toFixed(2)} (the size before)`, ok: per <= previous * 1.1 } : {}),
          note: previous ? `×${(per / previous).toFixed(2)} vs the size before` : 'the first size of the curve',
        });
        previous = per;
      } finally {
        await hub.close();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
