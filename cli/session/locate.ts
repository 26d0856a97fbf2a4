// Robots declared by hardware_id alone are found over mDNS when observed
// (reconciler/locate.ts asks, the discovery driver browses): one browse for
// all of them, ended as soon as each id has answered, else after 3 s. The
// driver is loaded only when a file has such a robot.

const LOCATE_TIMEOUT_MS = 3000;

/** Hardware id → daemon URL of the robots that answered; throws when no interface can browse (multicast unavailable). */
export async function locateByHardwareId(ids: string[], signal?: AbortSignal): Promise<Record<string, string>> {
  const { browseRobots } = await import('../../drivers/discovery/browse.js');
  const wanted = new Set(ids);
  const found = await browseRobots({
    timeoutMs: LOCATE_TIMEOUT_MS,
    ...(signal ? { signal } : {}),
    until: (robots) => [...wanted].every((id) => robots.some((r) => r.hardwareId === id)),
  });
  const out: Record<string, string> = {};
  for (const r of found.robots) if (r.hardwareId !== null && wanted.has(r.hardwareId) && !(r.hardwareId in out)) out[r.hardwareId] = r.url;
  return out;
}
