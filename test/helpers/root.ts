import { dirname, resolve } from 'node:path';

/** The clone's root folder. Its own module: importing it loads nothing (import-graph.ts loads TypeScript). */
export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
