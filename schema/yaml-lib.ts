import { createRequire } from 'node:module';

// The yaml library, loaded on first use: a valid robot.yaml is read by the
// fast reader and never needs it, and it is the largest module validate
// would load (about a third of its start-up). Synchronous, as loading is.

type YamlLib = typeof import('yaml');

const require = createRequire(import.meta.url);
let lib: YamlLib | undefined;

export function yamlLib(): YamlLib {
  lib ??= require('yaml') as YamlLib;
  return lib;
}
