export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The receiver pages' one stylesheet. */
export const PAGE_STYLE = 'body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code{background:#f3f3f3;padding:0 .2rem;overflow-wrap:anywhere}';

/**
 * The default page at `/`: what is served here and how to point a Hub webhook
 * at it. `apply`: the apply command as its user runs it (the CLI writes it);
 * without it the page names robotctl's apply command.
 */
export function landingPage(endpoints: string[], apply: string | null = null): string {
  const items = endpoints.map((e) => `<li><code>POST ${escapeHtml(e)}</code></li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>robotctl webhook receiver</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<h1>This is an app to process 🤗 Webhooks</h1>
<p>Webhooks let you listen for changes on specific repos, or on all repos of users and organizations, on the Hugging Face Hub.
See the <a href="https://huggingface.co/docs/hub/webhooks">webhooks guide</a>.</p>
<p>${endpoints.length} webhook(s) are registered:</p>
<ul>
${items}
</ul>
<h2>Setup</h2>
<ol>
<li>Go to <a href="https://huggingface.co/settings/webhooks">https://huggingface.co/settings/webhooks</a> (or declare the webhook in robot.yaml and ${apply === null ? "run robotctl's <code>apply</code>" : `run <code>${escapeHtml(apply)}</code>`}).</li>
<li>Set its target URL to this server's public address followed by the endpoint path, e.g. <code>https://my-host.example${escapeHtml(endpoints[0] ?? '/webhooks/name')}</code>.
The Hub must be able to reach this address: the full local URL is printed in this server's logs.</li>
<li>Set the same secret as this receiver (<code>WEBHOOK_SECRET</code>): the Hub sends it in the <code>X-Webhook-Secret</code> header.</li>
</ol>
</body>
</html>
`;
}
