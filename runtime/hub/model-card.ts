import { parseDocument } from 'yaml';
import type { RepoType } from '../../lib/wire/hub.js';

// The README's YAML front matter ("card metadata") checked as the Hub checks
// it: `/api/validate-yaml` answers the same errors and warnings, and a commit
// whose README.md has errors is refused (400). Only the keys whose shape the
// Hub enforces for every repo are checked; other keys are free.

export interface CardIssue { message: string }
export interface CardCheck { errors: CardIssue[]; warnings: CardIssue[] }

/** The Hub's warning for a card without metadata (huggingface_hub turns warnings into a UserWarning). */
export const EMPTY_METADATA_WARNING = 'empty or missing yaml metadata in repo card (https://huggingface.co/docs/hub/model-cards#model-card-metadata)';

/** The front matter block: huggingface_hub's REGEX_YAML_BLOCK allows blank lines before the first `---`. */
const FRONT_MATTER = /^\s*---\r?\n([\s\S]*?)\r?\n?---(?:\r?\n|$)/;

type Shape = 'string' | 'strings' | 'array' | 'boolean' | 'number';

const COMMON: Record<string, Shape> = { license: 'string', tags: 'strings', language: 'strings', thumbnail: 'string', license_name: 'string', license_link: 'string' };
const BY_TYPE: Record<RepoType, Record<string, Shape>> = {
  model: { 'model-index': 'array', library_name: 'string', pipeline_tag: 'string', datasets: 'strings', metrics: 'strings', base_model: 'strings', widget: 'array' },
  dataset: { pretty_name: 'string', task_categories: 'strings', task_ids: 'strings', size_categories: 'strings', configs: 'array', dataset_info: 'array' },
  space: { title: 'string', sdk: 'string', sdk_version: 'string', app_file: 'string', app_port: 'number', pinned: 'boolean', emoji: 'string', colorFrom: 'string', colorTo: 'string', models: 'strings', datasets: 'strings' },
};
const SPACE_SDKS = ['gradio', 'streamlit', 'docker', 'static'];

function shapeError(key: string, shape: Shape, value: unknown): string | null {
  const str = typeof value === 'string';
  switch (shape) {
    case 'string': return str ? null : `"${key}" must be a string`;
    // The Hub takes one string or a list of strings for these.
    case 'strings': return str || (Array.isArray(value) && value.every((v) => typeof v === 'string')) ? null : `"${key}" must be a string or an array of strings`;
    case 'array': return Array.isArray(value) ? null : `"${key}" must be an array`;
    case 'boolean': return typeof value === 'boolean' ? null : `"${key}" must be a boolean`;
    case 'number': return typeof value === 'number' ? null : `"${key}" must be a number`;
  }
}

/** The YAML text between the `---` lines, or null when the README has none. */
export function frontMatter(text: string): string | null {
  return FRONT_MATTER.exec(text)?.[1] ?? null;
}

/** Errors (the commit is refused) and warnings (it goes through) for a README's content. */
export function checkCard(content: string, repoType: RepoType): CardCheck {
  const yaml = frontMatter(content);
  if (yaml === null || yaml.trim() === '') return { errors: [], warnings: [{ message: EMPTY_METADATA_WARNING }] };
  const doc = parseDocument(yaml);
  if (doc.errors.length > 0) {
    return { errors: doc.errors.map((e) => ({ message: `YAML metadata, line ${String((e.linePos?.[0]?.line ?? 0) + 1)}: ${e.message.split('\n')[0] ?? ''}` })), warnings: [] };
  }
  const value: unknown = doc.toJS();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { errors: [{ message: 'YAML metadata must be a mapping' }], warnings: [] };
  const meta = value as Record<string, unknown>;
  const shapes = { ...COMMON, ...BY_TYPE[repoType] };
  const errors: CardIssue[] = [];
  for (const [key, v] of Object.entries(meta)) {
    const shape = shapes[key];
    if (!shape || v === null || v === undefined) continue;
    const err = shapeError(key, shape, v);
    if (err) errors.push({ message: err });
  }
  if (repoType === 'space' && typeof meta.sdk === 'string' && !SPACE_SDKS.includes(meta.sdk)) {
    errors.push({ message: `"sdk" must be one of [${SPACE_SDKS.join(', ')}]` });
  }
  return { errors, warnings: [] };
}

/** A repo's README.md: the one file whose metadata the Hub checks. */
export function isCardPath(path: string): boolean {
  return path === 'README.md';
}
