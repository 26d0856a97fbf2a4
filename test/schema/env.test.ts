import t from 'tap';
import { substitute } from '../../schema/env.js';
import { loadConfigText } from '../../schema/load.js';
import { formatDiagnostic } from '../../schema/types.js';

t.test('substitute: whole value, inside a longer string, several at once', async (t) => {
  const env = { HOST: '10.0.0.5', PORT: '8000' };
  t.equal(substitute('${HOST}', env).value, '10.0.0.5');
  t.equal(substitute('http://${HOST}:${PORT}/api', env).value, 'http://10.0.0.5:8000/api');
  t.equal(substitute('no refs, $HOST or $ alone', env).value, 'no refs, $HOST or $ alone', '$NAME without braces is literal');
});

t.test('substitute: a missing variable is reported, never an empty string', async (t) => {
  const s = substitute('a${MISSING}b${ALSO}', {});
  t.strictSame(s.missing, ['MISSING', 'ALSO']);
  t.equal(s.replaced, false);
  t.equal(substitute('${EMPTY}', { EMPTY: '' }).missing.length, 0, 'set-but-empty counts as set');
});

t.test('substitute: $${VAR} is a literal ${VAR} and is not looked up', async (t) => {
  const s = substitute('keep $${HOME} and ${X}', { X: 'x', HOME: '/root' });
  t.equal(s.value, 'keep ${HOME} and x');
  t.strictSame(s.missing, []);
  t.equal(substitute('$${NOT_SET}', {}).value, '${NOT_SET}');
  t.equal(substitute('$${NOT_SET}', {}).replaced, false);
});

t.test('substitute: values are not substituted again', async (t) => {
  t.equal(substitute('${A}', { A: '${B}', B: 'b' }).value, '${B}');
});

t.test('substitute: invalid references and unclosed braces', async (t) => {
  t.strictSame(substitute('${A:-x}', { A: 'a' }).invalid, ['A:-x']);
  t.strictSame(substitute('${}', {}).invalid, ['']);
  t.equal(substitute('${A', { A: 'a' }).unterminated, true);
  t.equal(substitute('$${A', {}).unterminated, true);
});

const load = (text: string, env: NodeJS.ProcessEnv) => loadConfigText(text, 'robot.yaml', '/tmp', env);

t.test('keys are never substituted', async (t) => {
  const r = load('version: 1\nrobots:\n  ${NAME}: { url: http://127.0.0.1:8000 }\n', { NAME: 'desk' });
  t.equal(r.ok, false);
  t.strictSame(r.diagnostics.map(formatDiagnostic), [
    "robot.yaml:3:3: robots[\"${NAME}\"]: name '${NAME}' must start with a letter or _ and use only letters, digits, _ and -",
  ]);
});

t.test('an unquoted ${VAR} takes the type of its value; a quoted one stays a string', async (t) => {
  const yaml = (port: string) => `version: 1\nreceiver:\n  port: ${port}\n  endpoints: { all: { action: log } }\n`;
  const ok = load(yaml('${PORT}'), { PORT: '9000' });
  t.equal(ok.ok && ok.config.receiver?.port, 9000);
  const quoted = load(yaml('"${PORT}"'), { PORT: '9000' });
  t.strictSame(quoted.diagnostics.map(formatDiagnostic), ['robot.yaml:3:9: receiver.port: must be an integer, got a string']);
  const enabled = load('version: 1\nwebhooks:\n  w: { url: http://h/x, watched: [user:a], enabled: ${ON} }\n', { ON: 'false' });
  t.equal(enabled.ok && enabled.config.webhooks.w?.enabled, false);
});

t.test('substituted values are validated, and secrets never echoed', async (t) => {
  const text = 'version: 1\nwebhooks:\n  w:\n    url: ${URL}\n    watched: [user:a]\n    secret: ${S}\n';
  const r = load(text, { URL: 'ftp://x', S: 'pässwörd' });
  const lines = r.diagnostics.map(formatDiagnostic);
  t.strictSame(lines, [
    'robot.yaml:4:10: webhooks.w.url: must be an http(s) URL like https://example.org/webhooks/redeploy, not ftp:',
    'robot.yaml:6:13: webhooks.w.secret: must use printable ASCII characters only (the hub accepts nothing else)',
  ]);
  t.notMatch(lines.join('\n'), /pässwörd/);
});

t.test('several missing variables in one value are each named', async (t) => {
  const r = load("version: 1\nrobots:\n  desk: { url: 'http://${H}:${P}' }\n", {});
  t.strictSame(r.diagnostics.map(formatDiagnostic), [
    'robot.yaml:3:16: robots.desk.url: environment variable H is not set',
    'robot.yaml:3:16: robots.desk.url: environment variable P is not set',
  ]);
});
