import { createServer } from 'node:net';

// Several simulated robots on one machine each run an app whose settings page
// would bind the same custom_app_url port (the real apps' 8042). The daemon
// gives each app a free port instead, through ROBOTCTL_APP_SETTINGS_URL, which
// robotctl's reachy_mini stand-in honours, and reports that URL as the app's
// custom_app_url so the dashboard's ⚙ link opens this robot's app. (The real
// reachy-mini package ignores the variable and binds custom_app_url as written.)

export const SETTINGS_URL_ENV = 'ROBOTCTL_APP_SETTINGS_URL';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The environment and reported URL for an app's settings page; unchanged when it has none or the caller chose one. */
export async function settingsPort(customUrl: unknown, env: NodeJS.ProcessEnv): Promise<{ env: NodeJS.ProcessEnv; url: string | null }> {
  if (typeof customUrl !== 'string' || env[SETTINGS_URL_ENV]) return { env, url: null };
  let url: URL;
  try {
    url = new URL(customUrl);
  } catch {
    return { env, url: null };
  }
  url.port = String(await freePort());
  const href = url.href.replace(/\/$/, '');
  return { env: { ...env, [SETTINGS_URL_ENV]: href }, url: href };
}
