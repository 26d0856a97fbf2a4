// N simulated robots in one `robotctl daemon --sim --robots N` child, each on
// its own free port: the robots a fleet benchmark plans against (found by
// URL, so not advertised over mDNS).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/robotctl.js', import.meta.url));

/** Resolves once every robot listens: { urls: [[name, url]…], stop() }. */
export async function startSimFleet(robots, appsDir, env = process.env) {
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--robots', String(robots), '--apps-dir', appsDir, '--stop-timeout', '5', '--no-mdns'], {
    env: { ...env, HF_HOME: join(appsDir, 'hf') }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const urls = [];
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the simulated fleet exited with ${code} before every robot listened`)));
    createInterface({ input: child.stdout }).on('line', (l) => {
      const m = /^listening on (\S+) \((\S+)\)$/.exec(l);
      if (m) urls.push([m[2], m[1]]);
      if (urls.length === robots) resolve();
    });
  });
  return {
    urls,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
