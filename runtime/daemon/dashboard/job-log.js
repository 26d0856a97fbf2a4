// Streams an install/remove job's log into the page while it runs
// (WS /api/apps/ws/apps-manager/{id}); falls back to polling job-status.
import { api, wsUrl } from './api.js';

const POLL_MS = 300;
const isJobInfo = (v) => v && typeof v === 'object' && typeof v.status === 'string' && Array.isArray(v.logs);
const finished = (s) => s === 'done' || s === 'failed';

function showStatus(status) {
  const badge = document.getElementById('job-status');
  badge.textContent = status.replace('_', ' ');
  badge.dataset.state = status;
}

function appendLines(lines) {
  if (!lines.length) return;
  const pre = document.getElementById('job-log');
  const stick = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
  pre.textContent += lines.map((l) => `${l}\n`).join('');
  if (stick) pre.scrollTop = pre.scrollHeight;
}

async function pollUntilDone(jobId, shown) {
  for (;;) {
    let info;
    try { info = await api('GET', `/api/apps/job-status/${encodeURIComponent(jobId)}`); } catch (err) {
      appendLines([`(job status unavailable: ${err.message})`]);
      return { status: 'failed', logs: [] };
    }
    appendLines(info.logs.slice(shown));
    shown = Math.max(shown, info.logs.length);
    showStatus(info.status);
    if (finished(info.status)) return info;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Show the job box for `title` and resolve with the final JobInfo once the job ends. */
export function followJob(jobId, title) {
  document.getElementById('job-box').hidden = false;
  document.getElementById('job-title').textContent = title;
  document.getElementById('job-log').textContent = '';
  showStatus('pending');
  return new Promise((resolve) => {
    let shown = 0; // lines on screen
    let sinceInfo = 0; // text frames since the last JobInfo frame
    let final = null;
    let ws;
    try { ws = new WebSocket(wsUrl(`/api/apps/ws/apps-manager/${encodeURIComponent(jobId)}`)); } catch {
      pollUntilDone(jobId, 0).then(resolve);
      return;
    }
    ws.onmessage = (ev) => {
      let doc = null;
      try { doc = JSON.parse(ev.data); } catch { /* a plain log line */ }
      if (isJobInfo(doc)) {
        // The JobInfo frame repeats the lines just sent as text; show only what is new.
        appendLines(doc.logs.slice(sinceInfo));
        shown += Math.max(0, doc.logs.length - sinceInfo);
        sinceInfo = 0;
        showStatus(doc.status);
        if (finished(doc.status)) final = doc;
      } else if (doc && typeof doc === 'object' && typeof doc.error === 'string') {
        appendLines([doc.error]);
      } else {
        appendLines([String(ev.data)]);
        shown += 1;
        sinceInfo += 1;
      }
    };
    ws.onclose = () => {
      if (final) resolve(final);
      else pollUntilDone(jobId, shown).then(resolve);
    };
  });
}
