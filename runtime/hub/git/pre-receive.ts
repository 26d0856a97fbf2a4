import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// The checks a push passes before any ref moves, as the Hub makes them (its
// words, which users and scripts know): no file over 10 MiB outside LFS, and
// no LFS pointer whose object was never uploaded. git http-backend's
// receive-pack runs this hook (core.hooksPath, set per request by
// routes/git.ts); it sees the pushed objects in git's quarantine.

export const MAX_REGULAR_FILE_BYTES = 10 * 1024 * 1024;

const RULE = '-------------------------------------------------------------------------';

/** The Hub's refusal of files over 10 MiB (`offending`: "path (ref: refs/heads/main)"). */
export function tooLargeMessage(offending: string[]): string[] {
  return [
    RULE,
    'Your push was rejected because it contains files larger than 10 MiB.',
    'Please use https://git-lfs.github.com/ to store large files.',
    'See also: https://hf.co/docs/hub/repositories-getting-started#terminal',
    '',
    'Offending files:',
    ...offending.map((f) => `  - ${f}`),
    RULE,
  ];
}

/** The Hub's refusal of pointers to LFS objects it does not have. */
export function missingObjectMessage(offending: string[]): string[] {
  return [
    RULE,
    'Your push was rejected because an LFS pointer pointed to a file that does not exist.',
    'For instance, this can happen if you used git push --no-verify to push your changes.',
    'Offending file: ',
    ...offending.map((f) => `- ${f}`),
    RULE,
  ];
}

/** Single-quoted words for printf. */
function shellWords(lines: string[]): string {
  return lines.map((l) => `'${l.replace(/'/g, `'\\''`)}'`).join(' ');
}

// POSIX sh: git lists the objects the push brings (`--not --all`: against the
// refs before it), cat-file gives type, size and path; only blobs of a
// pointer's size are read.
const SCRIPT = [
  '#!/bin/sh',
  '# pre-receive of the robotctl embedded hub, written at each start by runtime/hub/git/pre-receive.ts',
  `max=${MAX_REGULAR_FILE_BYTES}`,
  'zero=0000000000000000000000000000000000000000',
  'lfs="$(git rev-parse --absolute-git-dir)/lfs/objects"',
  'nl=\'',
  '\'',
  'big=""',
  'missing=""',
  'while read -r old new ref; do',
  '  [ "$new" = "$zero" ] && continue',
  '  objects=$(git rev-list --objects "$new" --not --all | git cat-file --batch-check=\'%(objecttype) %(objectname) %(objectsize) %(rest)\')',
  '  while read -r kind oid size path; do',
  '    [ "$kind" = blob ] || continue',
  '    if [ "$size" -gt "$max" ]; then',
  '      big="$big$nl$path (ref: $ref)"',
  '    elif [ "$size" -ge 100 ] && [ "$size" -le 1024 ]; then',
  '      sha=$(git cat-file blob "$oid" | sed -n \'1{/^version https:\\/\\/git-lfs\\.github\\.com\\/spec\\/v1$/!q;};s/^oid sha256:\\([0-9a-f]\\{64\\}\\)$/\\1/p\')',
  '      if [ -n "$sha" ]; then',
  '        a=$(printf %s "$sha" | cut -c1-2)',
  '        b=$(printf %s "$sha" | cut -c3-4)',
  '        [ -f "$lfs/$a/$b/$sha" ] || missing="$missing$nl$path"',
  '      fi',
  '    fi',
  '  done <<OBJECTS',
  '$objects',
  'OBJECTS',
  'done',
  'status=0',
  'if [ -n "$big" ]; then',
  `  printf '%s\\n' ${shellWords(tooLargeMessage([]).slice(0, -1))} >&2`,
  '  printf \'%s\\n\' "${big#?}" | sed \'s/^/  - /\' >&2',
  `  printf '%s\\n' '${RULE}' >&2`,
  '  status=1',
  'fi',
  'if [ -n "$missing" ]; then',
  `  printf '%s\\n' ${shellWords(missingObjectMessage([]).slice(0, -1))} >&2`,
  '  printf \'%s\\n\' "${missing#?}" | sed \'s/^/- /\' >&2',
  `  printf '%s\\n' '${RULE}' >&2`,
  '  status=1',
  'fi',
  'exit $status',
  '',
].join('\n');

/** (Re)write the hook, so a hub's data folder always has the current checks. */
export async function installHooks(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'pre-receive');
  await writeFile(file, SCRIPT, { mode: 0o700 });
  await chmod(file, 0o700);
}
