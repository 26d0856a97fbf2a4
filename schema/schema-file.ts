import { readFileSync } from 'node:fs';
import { packagePath } from '../lib/paths.js';

// The JSON Schema ships as a file (editors point at it); read it once.

export const SCHEMA_FILE = packagePath('schema', 'robot.schema.json');

let cached: Record<string, unknown> | undefined;

export function robotSchema(): Record<string, unknown> {
  cached ??= JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
  return cached;
}
