// The environment a robot's app runs with, and the one its install (pip, a
// build backend) runs with: what they need from the daemon's environment and
// none of its secrets (issue 29.9: an app's os.environ held HF_TOKEN,
// PGPASSWORD and WEBHOOK_SECRET). An allow-list, so a secret under a name
// nobody thought of stays out too; a name that looks like a credential is
// dropped even where its prefix is allowed.

/** Names an app may need: where it runs, its locale and terminal, the hub it downloads from. */
const APP_NAMES = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'COLORTERM', 'NO_COLOR', 'TMPDIR',
  // Desktop, sound and camera of the robot's computer.
  'DISPLAY', 'WAYLAND_DISPLAY', 'PULSE_SERVER',
  // Python's own switches that only change how it runs (not PYTHONPATH/PYTHONHOME/PYTHONSTARTUP, which
  // would load other code than the app's venv).
  'PYTHONUNBUFFERED', 'PYTHONIOENCODING', 'PYTHONUTF8', 'PYTHONDONTWRITEBYTECODE', 'PYTHONWARNINGS', 'PYTHONFAULTHANDLER',
  'PYTHONPYCACHEPREFIX',
  // The hub the app downloads models from (HF_TOKEN and the rest of HF_* stay out).
  'HF_ENDPOINT',
  // TLS roots for HTTPS behind an inspecting proxy.
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE',
  // The SDK's own: the daemon's address, the app's settings page, the daemon's marker (apps/proc.ts).
  'ROBOT_DAEMON_URL', 'ROBOTCTL_APP_SETTINGS_URL', 'ROBOTCTL_DAEMON_INSTANCE',
]);
const APP_PREFIXES = ['LC_', 'XDG_', 'REACHY_'];
const PROXY_NAMES = new Set(['http_proxy', 'https_proxy', 'no_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY']);

/** What an install needs besides: pip's own settings (spec §9), proxies with their credentials, a compiler's flags. */
const INSTALL_NAMES = new Set(['NETRC', 'CC', 'CXX', 'CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'PKG_CONFIG_PATH', 'MAKEFLAGS', 'SOURCE_DATE_EPOCH']);
const INSTALL_PREFIXES = ['PIP_'];

/** Names that hold a credential wherever they appear (REACHY_API_KEY, XDG_…_TOKEN). */
const CREDENTIAL = /TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|COOKIE|SESSION|PRIVATE|(^|_)(API_?|ACCESS_?|AUTH_?)?KEY(_|$)|(^|_)AUTH(_|$)/i;

function hasUserInfo(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username !== '' || u.password !== '';
  } catch {
    return /@/.test(url);
  }
}

function appAllows(name: string, value: string): boolean {
  if (PROXY_NAMES.has(name)) return !hasUserInfo(value);
  if (CREDENTIAL.test(name)) return false;
  return APP_NAMES.has(name) || APP_PREFIXES.some((p) => name.startsWith(p));
}

function pick(base: NodeJS.ProcessEnv, allows: (name: string, value: string) => boolean): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined && allows(name, value)) out[name] = value;
  return out;
}

/**
 * The environment an app is started with, from the daemon's (the daemon adds
 * its own address). `pass`: names the user chose to give apps (`--app-env`),
 * passed as they are, even a credential.
 */
export function appEnvironment(base: NodeJS.ProcessEnv, pass: readonly string[] = []): NodeJS.ProcessEnv {
  return pick(base, (name, value) => pass.includes(name) || appAllows(name, value));
}

/**
 * The environment of the daemon's installs (pip, the build backend): the
 * app's, plus PIP_* as the real daemon's pip honours them (an index URL may
 * carry its credentials, the user's choice), proxies even with credentials,
 * and a compiler's settings. The build runs the app's setup code, so the
 * daemon's other secrets stay out here too.
 */
export function installEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return pick(base, (name, value) => PROXY_NAMES.has(name) || INSTALL_NAMES.has(name) || INSTALL_PREFIXES.some((p) => name.startsWith(p)) || appAllows(name, value));
}
