import t from 'tap';
import { appEnvironment, installEnvironment } from '../../lib/app-env.js';

// Issue 29.9: the rule for an app's environment and its install's.

const DAEMON: NodeJS.ProcessEnv = {
  PATH: '/usr/bin', HOME: '/home/r', USER: 'r', LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8', TZ: 'Europe/Paris', TERM: 'xterm',
  PYTHONUNBUFFERED: '1', PYTHONPATH: '/elsewhere', PYTHONSTARTUP: '/tmp/x.py', HF_ENDPOINT: 'https://huggingface.co', HF_HOME: '/h',
  HF_TOKEN: 'hf_x', HUGGING_FACE_HUB_TOKEN: 'hf_y', PGPASSWORD: 'p', PGUSER: 'u', DATABASE_URL: 'postgres://…', WEBHOOK_SECRET: 's',
  GITHUB_TOKEN: 'g', AWS_SECRET_ACCESS_KEY: 'a', SSH_AUTH_SOCK: '/tmp/agent', REACHY_ROBOT_NAME: 'desk', REACHY_API_KEY: 'k',
  XDG_RUNTIME_DIR: '/run/user/1', XDG_SESSION_COOKIE: 'c', ROBOTCTL_APP_SETTINGS_URL: 'http://127.0.0.1:1', ROBOTCTL_STATE: 'postgres://u:p@h/db',
  ROBOTCTL_PYTHON: 'python3', HTTPS_PROXY: 'http://proxy:3128', http_proxy: 'http://u:pw@proxy:3128', NO_PROXY: 'localhost',
  PIP_INDEX_URL: 'https://u:t@index/simple', PIP_NO_INDEX: '1', SSL_CERT_FILE: '/etc/ssl/c.pem', CFLAGS: '-O2', OPENAI_API_KEY: 'sk',
};

t.test('an app gets what it runs with, never a credential', async (t) => {
  t.same(Object.keys(appEnvironment(DAEMON)).sort(), [
    'HF_ENDPOINT', 'HOME', 'HTTPS_PROXY', 'LANG', 'LC_ALL', 'NO_PROXY', 'PATH', 'PYTHONUNBUFFERED', 'REACHY_ROBOT_NAME',
    'ROBOTCTL_APP_SETTINGS_URL', 'SSL_CERT_FILE', 'TERM', 'TZ', 'USER', 'XDG_RUNTIME_DIR',
  ]);
  t.same(appEnvironment(DAEMON, ['OPENAI_API_KEY']).OPENAI_API_KEY, 'sk', 'a name the user passes on purpose');
});

t.test('an install gets the app\'s set, pip\'s settings, proxies with their credentials and a compiler\'s flags', async (t) => {
  const env = installEnvironment(DAEMON);
  for (const name of ['PIP_INDEX_URL', 'PIP_NO_INDEX', 'http_proxy', 'HTTPS_PROXY', 'CFLAGS', 'PATH', 'HF_ENDPOINT']) t.ok(name in env, name);
  for (const name of ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN', 'PGPASSWORD', 'PGUSER', 'DATABASE_URL', 'WEBHOOK_SECRET', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'ROBOTCTL_STATE', 'OPENAI_API_KEY', 'PYTHONPATH']) {
    t.notOk(name in env, `no ${name}`);
  }
});
