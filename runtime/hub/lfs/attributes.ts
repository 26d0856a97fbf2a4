// Which paths a repo stores with LFS: its root .gitattributes (`filter=lfs`),
// read with git's pattern rules, and the Hub's default .gitattributes for a
// new repo. Pure.

import type { RepoType } from '../../../lib/wire/hub.js';

/** The patterns the Hub's own first commit tracks with LFS (a new model or Space repo). */
const MODEL_PATTERNS = [
  '*.7z', '*.arrow', '*.bin', '*.bz2', '*.ckpt', '*.ftz', '*.gz', '*.h5', '*.joblib', '*.lfs.*', '*.mlmodel', '*.model',
  '*.msgpack', '*.npy', '*.npz', '*.onnx', '*.ot', '*.parquet', '*.pb', '*.pickle', '*.pkl', '*.pt', '*.pth', '*.rar',
  '*.safetensors', 'saved_model/**/*', '*.tar.*', '*.tar', '*.tflite', '*.tgz', '*.wasm', '*.xz', '*.zip', '*.zst', '*tfevents*',
];
/** Datasets also track archives of samples, audio and images. */
const DATASET_EXTRA = [
  '*.lz4', '*.pcm', '*.sam', '*.raw', '*.aac', '*.flac', '*.mp3', '*.ogg', '*.wav',
  '*.bmp', '*.gif', '*.png', '*.tiff', '*.jpg', '*.jpeg', '*.webp',
];

export function defaultGitattributes(type: RepoType): string {
  const patterns = type === 'dataset' ? [...MODEL_PATTERNS, ...DATASET_EXTRA] : MODEL_PATTERNS;
  return patterns.map((p) => `${p} filter=lfs diff=lfs merge=lfs -text\n`).join('');
}

interface Rule {
  match: (path: string) => boolean;
  /** true: filter=lfs; false: another filter, or unset. */
  lfs: boolean;
}

/** A glob of .gitattributes/.gitignore syntax as a RegExp over a whole path. */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const before = i === 0 || glob[i - 1] === '/';
        const after = glob[i + 2] === '/' || i + 2 === glob.length;
        if (before && after) {
          // `**/` any folders (none included), trailing `/**` everything inside.
          re += i + 2 === glob.length ? '.*' : '(?:.*/)?';
          i += glob[i + 2] === '/' ? 2 : 1;
          continue;
        }
      }
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) { re += '\\['; continue; }
      let body = glob.slice(i + 1, end);
      if (body.startsWith('!') || body.startsWith('^')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '\\' && i + 1 < glob.length) {
      re += (glob[++i] as string).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function compile(pattern: string): ((path: string) => boolean) | null {
  // A pattern naming a folder (`dir/`) matches nothing in .gitattributes.
  if (pattern === '' || pattern.endsWith('/')) return null;
  const anchored = pattern.includes('/');
  const re = globRegExp(pattern.replace(/^\//, ''));
  return anchored ? (p) => re.test(p) : (p) => re.test(p.slice(p.lastIndexOf('/') + 1));
}

/** The `filter` rules of a .gitattributes file, in order (a later line wins). */
export function parseLfsRules(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [pattern = '', ...attrs] = line.split(/\s+/);
    let lfs: boolean | null = null;
    for (const a of attrs) {
      if (a.startsWith('filter=')) lfs = a === 'filter=lfs';
      else if (a === '-filter' || a === '!filter') lfs = false;
    }
    const match = lfs === null ? null : compile(pattern);
    if (match && lfs !== null) rules.push({ match, lfs });
  }
  return rules;
}

export function tracksWithLfs(rules: Rule[], path: string): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i] as Rule;
    if (rule.match(path)) return rule.lfs;
  }
  return false;
}
