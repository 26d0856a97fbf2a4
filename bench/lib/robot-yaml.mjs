// Generated robot.yaml files for the benchmarks: N webhooks in the block style
// the examples use, optionally each with an unknown key (one error per entry).
export const SECRET_ENV = { WEBHOOK_SECRET: 'bench-secret' };

export function webhooksYaml(n, { unknownKey = false } = {}) {
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
  return `${lines.join('\n')}\n`;
}
