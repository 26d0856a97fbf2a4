// robotctl never runs two apps jobs on one robot at once (issue 30.6): the
// real daemon does not serialise its jobs, and two builds of one Space
// snapshot collide there. Every install, remove and update of a process's
// clients for one robot (its base URL) waits for the one before it.

const tails = new Map<string, Promise<unknown>>();

export function oneJobAtATime<T>(robot: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(robot) ?? Promise.resolve();
  const mine = before.then(work, work);
  const tail = mine.catch(() => {});
  tails.set(robot, tail);
  void tail.then(() => { if (tails.get(robot) === tail) tails.delete(robot); });
  return mine;
}
