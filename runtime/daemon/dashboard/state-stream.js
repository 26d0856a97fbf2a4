// Keeps the latest robot state coming: the state WebSocket at the control-loop
// rate, or polling /api/state/full when the socket cannot be opened (proxies,
// older daemons). The socket is retried now and then while polling.
import { wsUrl } from './api.js';

const QUERY = 'with_head_pose=true&with_antenna_positions=true&with_body_yaw=true&use_pose_matrix=false';
const POLL_MS = 100;
const RETRY_SOCKET_MS = 5000;

/**
 * Start streaming; `onState(doc)` gets each state document, `onMode(mode)` gets
 * 'websocket' | 'polling' | 'offline'. Returns a stop function.
 */
export function streamState({ frequency = 50, onState, onMode }) {
  let stopped = false;
  let socket = null;
  let socketOpen = false;
  let polling = false;
  let retryTimer = null;

  // One polling loop at most; it ends as soon as a socket is open.
  const poll = async () => {
    if (polling) return;
    polling = true;
    while (!stopped && !socketOpen) {
      try {
        const res = await fetch(`/api/state/full?${QUERY}`);
        if (!res.ok) throw new Error(String(res.status));
        const doc = await res.json();
        if (!socketOpen) { onState(doc); onMode('polling'); }
      } catch {
        onMode('offline');
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    polling = false;
  };

  const fallBack = () => {
    socket = null;
    socketOpen = false;
    if (stopped) return;
    poll();
    clearTimeout(retryTimer);
    retryTimer = setTimeout(open, RETRY_SOCKET_MS);
  };

  function open() {
    if (stopped) return;
    let ws;
    try {
      ws = new WebSocket(wsUrl(`/api/state/ws/full?frequency=${frequency}&${QUERY}`));
    } catch {
      fallBack();
      return;
    }
    socket = ws;
    ws.onopen = () => { socketOpen = true; onMode('websocket'); };
    ws.onmessage = (ev) => {
      try { onState(JSON.parse(ev.data)); } catch { /* a malformed frame is skipped, the next one will do */ }
    };
    ws.onclose = () => { if (socket === ws) fallBack(); };
  }

  open();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    if (socket) socket.close();
  };
}
