// Shared setup of the browser tests: Debian's chromium driven by
// playwright-core (never a browser download), screenshots under test-output/.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '../helpers/cli.js';

export const CHROMIUM = '/usr/bin/chromium';

/** A reason to skip when the browser is missing, else false (tap's `skip` option). */
export const skipWithoutChromium: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser tests`;

export const LAPTOP = { width: 1366, height: 768 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Folder for this test file's screenshots (test-output/ is gitignored). */
export function screenshotDir(name: string): string {
  const dir = join(repoRoot, 'test-output', 'browser', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Page width must not exceed the viewport: no horizontal scroll. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Page errors and failed requests are collected so a test can assert there were none.
 * `expected` lists console errors a test provokes on purpose (a refused request logs one).
 */
export function collectProblems(page: Page, expected: RegExp[] = []): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !expected.some((re) => re.test(msg.text()))) problems.push(`console: ${msg.text()}`);
  });
  page.on('requestfailed', (req) => {
    // A socket closed on purpose at the end of the test is not a problem.
    if (!req.url().startsWith('ws')) problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`);
  });
  return problems;
}

/**
 * Text whose contrast with its background is below WCAG AA (4.5:1, or 3:1 for
 * large text), computed in the page from the styles as rendered. Returns
 * one line per offending element.
 */
export async function contrastProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const parse = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = (rgb: number[]): number => {
      const [r, g, b] = rgb.slice(0, 3).map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    const background = (el: Element | null): number[] => {
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || (c[3] ?? 0) > 0.9) return c;
      }
      return [255, 255, 255];
    };
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (el instanceof SVGElement) continue;
      const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
      if (!own || !(el as HTMLElement).offsetParent && getComputedStyle(el).position !== 'fixed') continue;
      const style = getComputedStyle(el);
      const fg = lum(parse(style.color));
      const bg = lum(background(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) out.push(`${el.tagName.toLowerCase()}#${el.id} "${(el.textContent ?? '').trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`);
    }
    return out;
  });
}
