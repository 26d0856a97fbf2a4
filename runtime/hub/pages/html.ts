// The HTML frame of the hub's pages (server-rendered, no script): escaping and
// the layout every page shares.

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The address of the pages' stylesheet (a name no repo owner can take: owners never start with '-'). */
export const STYLE_PATH = '/-/hub.css';

/** Pages load their stylesheet and nothing else: no script, no frame, no form. */
export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const LOGO = '<svg class="logo" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><line x1="11" y1="9" x2="9" y2="2" stroke="#39414c" stroke-width="2"/><line x1="21" y1="9" x2="23" y2="2" stroke="#39414c" stroke-width="2"/><rect x="4" y="8" width="24" height="15" rx="7" fill="#f7f8fa" stroke="#39414c" stroke-width="2"/><circle cx="12" cy="15.5" r="3" fill="#1b1f24"/><circle cx="20" cy="15.5" r="3" fill="#1b1f24"/><path d="M9 31 L11 24 H21 L23 31 Z" fill="#5b6573"/></svg>';

/** A whole page: `heading` and `main` are HTML already escaped by the caller. */
export function layout(o: { title: string; heading: string; main: string; mainClass?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(o.title)}</title>
<link rel="stylesheet" href="${STYLE_PATH}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<div class="title">${LOGO}<h1><a href="/">robotctl hub</a></h1></div>
${o.heading}
</header>
<main id="main" class="grid${o.mainClass ? ` ${o.mainClass}` : ''}">
${o.main}
</main>
<p class="foot">The embedded hub of robotctl: a local stand-in for the Hugging Face Hub.</p>
</body>
</html>
`;
}

/** A date as the pages show it: day and minute, UTC (stable across viewers). */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i] ?? 'TB'}`;
}
