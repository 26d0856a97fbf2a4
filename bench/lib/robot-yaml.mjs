// Generated robot.yaml files for the benchmarks: N webhooks in the block style
// the examples use, optionally each with an unknown key (one error per entry),
// and optionally a fleet: robots by URL, each given one `path:` app to run.
export const SECRET_ENV = { WEBHOOK_SECRET: 'bench-secret' };

/**
 * `robots`: [[name, url]…]; `appPath`: the folder of the app every robot
 * gets (needed with robots).
 */
export function webhooksYaml(n, { unknownKey = false, robots = [], appPath = null } = {}) {
  const lines = ['version: 1', 'hub: { endpoint: https://huggingface.co }', 'webhooks:'];
  for (let i = 0; i < n; i++) {
    lines.push(
      `  hook-${i}:`,
      `    url: https://example.org/hooks/${i}`,
      `    watched: [space:demo/app_${i % 50}, user:demo]`,
      '    domains: [repo]',
      '    secret: ${WEBHOOK_SECRET}',
    );
    if (unknownKey) lines.push('    colour: blue');
  }
  if (robots.length > 0) {
    lines.push('apps:', `  dev_app: { path: ${appPath} }`, 'active: dev_app', 'robots:');
    for (const [name, url] of robots) lines.push(`  ${name}: { url: ${url} }`);
  }
  return `${lines.join('\n')}\n`;
}
