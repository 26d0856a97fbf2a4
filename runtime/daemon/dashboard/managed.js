// "Managed by robotctl": when robotctl's agent keeps this robot in the
// state a robot.yaml declares, say so in the header, and warn after a manual
// stop that the agent will start the app again (it heals drift).
import { api } from './api.js';

const FRESH_MS = 10 * 60_000; // an agent checks drift every minute by default
let current = null;

export async function refreshManaged() {
  let body;
  try { body = await api('GET', '/api/robotctl/managed-by'); } catch { return; }
  const m = body && typeof body === 'object' ? body.managed_by : null;
  const fresh = m && typeof m.config === 'string' && Date.now() - Date.parse(m.last_seen) < FRESH_MS;
  current = fresh ? m : null;
  const badge = document.getElementById('managed-badge');
  badge.hidden = !current;
  if (current) {
    badge.textContent = `Managed by robotctl (${current.config} on ${current.host})`;
    badge.title = 'robotctl keeps this robot as its robot.yaml declares: changes made here may be undone.';
  }
}

/** After a stop by hand on a managed robot: the agent will undo it, say so. */
export function noteManualStop(app) {
  const note = document.getElementById('managed-note');
  if (!current) { note.hidden = true; return; }
  note.textContent = `robotctl manages this robot from ${current.config}: its agent will start ${app} again at its next check. To keep it stopped, change ${current.config}.`;
  note.hidden = false;
}
