import type { RepoType } from '../../../lib/wire/hub.js';
import type { CommitEntry, TreeEntry } from '../git/git-repos.js';
import { escapeHtml, humanSize, layout, shortDate } from './html.js';
import { renderReadme } from './markdown.js';

// A repo's page: its README rendered, its files, its last commits and the
// command that clones it (pure: the route gathers the facts).

export interface RepoPageFacts {
  type: RepoType;
  repoId: string;
  /** The page's own path: /owner/name, /datasets/…, /spaces/… */
  webPath: string;
  /** What `git clone` takes: the hub's URL and the page's path. */
  cloneUrl: string;
  sha: string;
  files: TreeEntry[];
  commits: CommitEntry[];
  readme: string | null;
  tags: string[];
  sdk: string | null;
  fullnames: Record<string, string>;
}

/** The file list stops there: a page stays small (the API lists everything). */
export const MAX_FILES = 500;

const KIND: Record<RepoType, string> = { model: 'model', dataset: 'dataset', space: 'space' };

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function filesCard(f: RepoPageFacts): string {
  const files = f.files.filter((e) => e.type === 'file');
  const shown = files.slice(0, MAX_FILES);
  const items = shown.map((e) => `<li><a class="name" href="${escapeHtml(`${f.webPath}/resolve/${f.sha}/${encodePath(e.path)}`)}">${escapeHtml(e.path)}</a><span class="meta">${humanSize(e.size)}</span></li>`).join('\n');
  const more = files.length > shown.length ? `<p class="muted">and ${files.length - shown.length} more files (the API lists them all: <code>GET /api/${f.type}s/${escapeHtml(f.repoId)}/tree/main?recursive=true</code>)</p>` : '';
  return `<section class="card" aria-labelledby="files-title">
<h2 id="files-title">Files <span class="muted">(${files.length})</span></h2>
<ul class="list">
${items}
</ul>
${more}</section>`;
}

function commitsCard(f: RepoPageFacts): string {
  const items = f.commits.map((c) => {
    const who = f.fullnames[c.author] ?? c.author;
    return `<li><span class="commit-title">${escapeHtml(c.title)}</span><span class="meta"><code>${c.id.slice(0, 7)}</code> · ${escapeHtml(who)} · ${shortDate(c.date)}</span></li>`;
  }).join('\n');
  return `<section class="card" aria-labelledby="commits-title">
<h2 id="commits-title">Last commits</h2>
<ul class="list">
${items}
</ul>
</section>`;
}

function cloneCard(f: RepoPageFacts): string {
  return `<section class="card" aria-labelledby="clone-title">
<h2 id="clone-title">Clone</h2>
<pre class="clone"><code>git clone ${escapeHtml(f.cloneUrl)}</code></pre>
<p class="muted">Pushing asks for a user name and a token of the hub as the password.</p>
</section>`;
}

function readmeCard(f: RepoPageFacts): string {
  const fileBase = `${f.webPath}/resolve/${f.sha}/`;
  const body = f.readme === null
    ? '<p class="muted">This repo has no README.md.</p>'
    : `<div class="markdown">${renderReadme(f.readme, fileBase)}</div>`;
  return `<section class="card readme" aria-labelledby="readme-title">
<h2 id="readme-title">README.md</h2>
${body}
</section>`;
}

export function repoPage(f: RepoPageFacts): string {
  const [owner = '', name = ''] = f.repoId.split('/');
  const tags = f.tags.length > 0 ? `<ul class="tags" aria-label="Tags">${f.tags.map((t) => `<li class="badge">${escapeHtml(t)}</li>`).join('')}</ul>` : '';
  const heading = `<div class="crumbs"><span class="badge" data-kind="${f.type}">${KIND[f.type]}${f.sdk ? ` · ${escapeHtml(f.sdk)}` : ''}</span>
<h2>${escapeHtml(owner)} / ${escapeHtml(name)}</h2>${tags}</div>`;
  return layout({
    title: `${f.repoId} · robotctl hub`,
    heading,
    mainClass: 'repo',
    main: [readmeCard(f), filesCard(f), commitsCard(f), cloneCard(f)].join('\n'),
  });
}
