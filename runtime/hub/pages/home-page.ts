import type { RepoType } from '../../../lib/wire/hub.js';
import { escapeHtml, layout, shortDate } from './html.js';

// The hub's root page: its users and their public repos, newest first, then
// the repos of other namespaces (organisations).

export interface HomeRepo { type: RepoType; repoId: string; webPath: string; lastModified: string; sdk: string | null }
export interface HomeFacts { users: { name: string; fullname: string }[]; repos: HomeRepo[] }

function repoList(repos: HomeRepo[]): string {
  if (repos.length === 0) return '<p class="muted">No public repos yet.</p>';
  const items = [...repos].sort((a, b) => b.lastModified.localeCompare(a.lastModified)).map((r) =>
    `<li><a class="name" href="${escapeHtml(r.webPath)}">${escapeHtml(r.repoId)}</a><span class="meta"><span class="badge" data-kind="${r.type}">${r.type}${r.sdk ? ` · ${escapeHtml(r.sdk)}` : ''}</span> ${shortDate(r.lastModified)}</span></li>`).join('\n');
  return `<ul class="list">\n${items}\n</ul>`;
}

export function homePage(f: HomeFacts): string {
  const owner = (id: string) => id.split('/')[0] ?? '';
  const userNames = new Set(f.users.map((u) => u.name));
  const cards = f.users.map((u) => {
    const title = u.fullname !== u.name ? `${escapeHtml(u.fullname)} <span class="muted">(${escapeHtml(u.name)})</span>` : escapeHtml(u.name);
    return `<section class="card" aria-label="${escapeHtml(u.name)}">
<h2>${title}</h2>
${repoList(f.repos.filter((r) => owner(r.repoId) === u.name))}
</section>`;
  });
  const others = f.repos.filter((r) => !userNames.has(owner(r.repoId)));
  if (others.length > 0) cards.push(`<section class="card" aria-labelledby="orgs-title">\n<h2 id="orgs-title">Organisations</h2>\n${repoList(others)}\n</section>`);
  return layout({
    title: 'robotctl hub',
    heading: `<p class="crumbs muted">${f.repos.length} public repo${f.repos.length === 1 ? '' : 's'}</p>`,
    main: cards.join('\n'),
  });
}
