// The real daemon does not serialise its jobs, and two installs of one Space
// revision build in the same snapshot folder of the hub cache, in-tree: one
// of them fails (spec §9 Jobs: `creating build/lib/build/lib/...`). The
// simulator builds in private staging folders, so it keeps the set of
// snapshots being built per daemon and fails the second build the same way,
// with the lines of setuptools and pip that say so.

const building = new WeakMap<object, Set<string>>();

/** Runs `work` holding the snapshot; a second holder at the same time fails as the real build does. */
export async function withSnapshot<T>(daemon: object, snapshot: string, pkg: string, log: (line: string) => void, work: () => Promise<T>): Promise<T> {
  let held = building.get(daemon);
  if (!held) building.set(daemon, (held = new Set()));
  if (held.has(snapshot)) {
    log(`creating build/lib/build/lib/${pkg}`);
    log(`error: could not create 'build/lib/build/lib/${pkg}': File exists`);
    log(`ERROR: Failed building wheel for ${pkg}`);
    throw new Error(`another install is building the same snapshot (${snapshot})`);
  }
  held.add(snapshot);
  try {
    return await work();
  } finally {
    held.delete(snapshot);
  }
}
