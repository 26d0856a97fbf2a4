import type { OpenApiDocument } from './document.js';

// The /docs page: every operation of the OpenAPI document (method, path,
// parameters, request body, answers) and the WebSocket routes, as plain HTML
// with its style inline: nothing is fetched, no script runs.

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (v: unknown): string => `<pre>${esc(JSON.stringify(v, null, 2))}</pre>`;

interface Param { name: string; in: string; required: boolean; schema: unknown }
interface Op { summary?: string; parameters?: Param[]; requestBody?: { content: Record<string, { schema: unknown }> }; responses?: Record<string, { description: string }> }

function opHtml(method: string, path: string, op: Op): string {
  const params = op.parameters?.length
    ? `<table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${op.parameters.map((p) =>
      `<tr><td><code>${esc(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${esc(JSON.stringify(p.schema))}</code></td></tr>`).join('')}</table>`
    : '';
  const body = op.requestBody ? `<h4>Body</h4>${json(op.requestBody.content['application/json']?.schema)}` : '';
  const answers = Object.entries(op.responses ?? {}).map(([code, r]) => `<li><b>${esc(code)}</b> ${esc(r.description)}</li>`).join('');
  const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
  return `<section id="${id}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>${params}${body}<ul>${answers}</ul></section>`;
}

export function docsPage(doc: OpenApiDocument, sockets: string[]): string {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => ({ path, m, op: op as Op })));
  ops.sort((a, b) => (a.path === b.path ? a.m.localeCompare(b.m) : a.path.localeCompare(b.path)));
  const index = ops.map(({ path, m }) => `<li><a href="#${`${m}-${path}`.replace(/[^A-Za-z0-9]+/g, '-')}">${m.toUpperCase()} ${esc(path)}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}code,pre{font:12px ui-monospace,monospace}
pre{background:#f5f5f5;padding:.5rem;overflow:auto}section{border-top:1px solid #ddd;padding:.3rem 0}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.15rem .4rem;text-align:left}
.m{display:inline-block;min-width:4rem;font-size:12px;color:#fff;border-radius:3px;padding:0 .3rem;background:#666}.get{background:#2a7ab0}.post{background:#2e8b57}.put{background:#b8860b}.delete{background:#b22222}</style></head>
<body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.description)} The document: <a href="/openapi.json">/openapi.json</a>.</p>
<h2>Operations</h2><ul>${index}</ul><h2>WebSocket routes</h2><ul>${sockets.map((s) => `<li><code>WS ${esc(s)}</code></li>`).join('')}</ul>
<h2>Details</h2>${ops.map(({ path, m, op }) => opHtml(m, path, op)).join('')}</body></html>\n`;
}
