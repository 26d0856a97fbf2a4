import { UserError } from '../../lib/errors.js';
import type { Io } from '../../lib/io.js';
import type { Config } from '../../schema/types.js';
import { pythonNeeds, needsMessage } from '../../lib/python-apps/preflight.js';
import { pythonCommand } from '../../lib/python-apps/python.js';
import { isLoopback } from './robots.js';

// Before `up` starts anything (hub, robots, agent): can this machine install
// and run the robots' Python apps? A missing piece stops it at once with the
// fix, instead of a first install failing a minute later while `up` says ready.
// The Python is ROBOTCTL_PYTHON, else python3: the one the robots then use.

/** Throws a UserError naming every missing piece and the command that installs them. */
export async function checkPython(config: Config, io: Io): Promise<void> {
  const robotsHere = Object.values(config.robots).some((r) => isLoopback(r.url));
  if (!robotsHere) return; // nothing Python runs on this machine
  const needs = await pythonNeeds({ python: pythonCommand(io.env), env: io.env });
  if (needs.length > 0) throw new UserError(`robotctl up cannot run the robots' Python apps on this machine: ${needsMessage(needs)}`);
}
