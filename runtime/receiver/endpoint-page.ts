import type { IncomingMessage } from 'node:http';
import { escapeHtml, PAGE_STYLE } from './landing-page.js';

// An endpoint's URL is printed (`robotctl up`, `robotctl receiver`) and so is
// opened in a browser. A browser's GET (it asks for HTML) gets a page that
// says what the address is for; any other GET keeps FastAPI's 405 JSON.

export function wantsHtml(req: IncomingMessage): boolean {
  return req.method === 'GET' && /\btext\/html\b/.test(req.headers.accept ?? '');
}

export function endpointPage(path: string): string {
  const p = escapeHtml(path);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Webhook endpoint ${p}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<h1>Webhook endpoint <code>${p}</code></h1>
<p>This address receives Hugging Face Hub webhook deliveries: the hub sends each one with <code>POST ${p}</code>,
a JSON body and the webhook's secret in the <code>X-Webhook-Secret</code> header.
Opening it in a browser delivers nothing.</p>
<p>To send deliveries here, point a webhook at this URL (robot.yaml's <code>webhooks:</code> does it for you) with the same secret as the receiver.</p>
<p><a href="/">This server's page</a></p>
</body>
</html>
`;
}
