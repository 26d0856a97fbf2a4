import MarkdownIt from 'markdown-it';
import { frontMatter } from '../model-card.js';

// A README rendered for people: markdown-it (CommonMark) with raw HTML off
// (written as text, never run), markdown-it's own link check (no javascript:,
// vbscript:, file:, data: but images), and links and images relative to the
// repo pointed at its files.

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** Absolute URLs, site-absolute paths and anchors stay; a relative path names a file of the repo. */
function isRelative(href: string): boolean {
  return href !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('/') && !href.startsWith('#') && !href.startsWith('?');
}

/** The README without its YAML front matter (the card data is shown apart). */
export function readmeBody(text: string): string {
  if (frontMatter(text) === null) return text;
  return text.replace(/^\s*---\r?\n[\s\S]*?\r?\n?---(?:\r?\n|$)/, '');
}

/** HTML of a README; `fileBase` (ending in '/') prefixes the repo-relative links and images. */
export function renderReadme(text: string, fileBase: string): string {
  const tokens = md.parse(readmeBody(text), {});
  const visit = (list: typeof tokens): void => {
    for (const tok of list) {
      if (tok.type === 'link_open' || tok.type === 'image') {
        const attr = tok.type === 'image' ? 'src' : 'href';
        const href = tok.attrGet(attr);
        if (href && isRelative(href)) tok.attrSet(attr, fileBase + href.replace(/^\.\//, ''));
      }
      if (tok.type === 'link_open') tok.attrSet('rel', 'nofollow noopener');
      if (tok.children) visit(tok.children);
    }
  };
  visit(tokens);
  return md.renderer.render(tokens, md.options, {});
}
