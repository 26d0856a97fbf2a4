import type { DaemonCall } from './http.js';

// The app the robot starts on its first wake-up after boot (spec §9 Startup
// app): `GET /api/apps/startup-app` → `{"startup_app": null|"<name>"}`; `PUT`
// with the same body answers it back, or 400 `App '<name>' is not installed`
// (code not_installed). Setting it twice is harmless: retried like a read.

interface StartupAppAnswer {
  startup_app?: string | null;
}

export function startupAppCalls(call: DaemonCall) {
  return {
    startupApp: async (signal?: AbortSignal): Promise<string | null> =>
      (await call<StartupAppAnswer>('/api/apps/startup-app', { signal })).startup_app || null,
    setStartupApp: async (name: string | null, signal?: AbortSignal): Promise<string | null> =>
      (await call<StartupAppAnswer>('/api/apps/startup-app', { method: 'PUT', body: { startup_app: name }, signal, idempotent: true })).startup_app || null,
  };
}
