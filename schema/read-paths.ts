import { eachValueScalar, formatPath, parseYaml, type Finding, type Located, type ParsedYaml } from './yaml-doc.js';
import { substituteData, substituteDocument } from './env.js';
import { schemaFindings } from './validate-schema.js';
import { ruleFindings } from './rules.js';
import { fastParse } from './fast-yaml.js';
import { BAIL } from './fast-yaml-scalar.js';
import { isLiteralSecret, isSecretPath, literalSecretWarning, literalSecretsInData } from './literal-secrets.js';

// Two ways to read robot.yaml into data and findings. The fast one keeps no
// positions and answers only for the YAML it is sure of; the position one
// (yaml's Document) is used when the fast one cannot answer or finds a
// problem, so that every diagnostic has its line and column. Both find the
// same problems on the same file (test/schema/read-paths.test.ts).

export interface DataRead {
  data: unknown;
  findings: Finding[];
  /** Not problems: the file stays valid (literal-secrets.ts). */
  warnings: Finding[];
}

export type PositionRead = (DataRead & { parsed: ParsedYaml }) | { problems: Located[] };

/** Undefined when the fast reader is not sure of the file. */
export function fastRead(text: string, env: NodeJS.ProcessEnv): DataRead | undefined {
  const parsed = fastParse(text);
  if (!parsed) return undefined;
  const warnings = literalSecretsInData(parsed.data); // the values as written: before substitution
  const envFindings = substituteData(parsed.dollars, env);
  if (envFindings === BAIL) return undefined;
  return { data: parsed.data, findings: dataFindings(envFindings, parsed.data, env), warnings };
}

export function positionRead(text: string, env: NodeJS.ProcessEnv): PositionRead {
  const parsed = parseYaml(text);
  if (parsed.problems.length) return { problems: parsed.problems };
  if (parsed.doc.contents === null) {
    return { problems: [{ line: 1, column: 1, path: '', message: 'the file is empty: a robot.yaml starts with `version: 1`' }] };
  }
  const warnings: Finding[] = [];
  eachValueScalar(parsed.doc.contents, [], (scalar, path) => {
    if (isSecretPath(path) && isLiteralSecret(scalar.value)) warnings.push(literalSecretWarning(path));
  });
  const envFindings = substituteDocument(parsed.doc, env);
  let data: unknown;
  try {
    data = parsed.doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { problems: [{ line: 1, column: 1, path: '', message: `invalid YAML: ${err instanceof Error ? err.message : String(err)}` }] };
  }
  return { parsed, data, findings: dataFindings(envFindings, data, env), warnings };
}

function dataFindings(envFindings: Finding[], data: unknown, env: NodeJS.ProcessEnv): Finding[] {
  return withoutShadowed([envFindings, ruleFindings(data, env), schemaFindings(data)]);
}

// Findings come in tiers, most specific first; a later tier's complaint about
// a value already reported (a missing ${VAR}, a bad watched item) is noise.
function withoutShadowed(tiers: Finding[][]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const tier of tiers) {
    const kept = tier.filter((f) => f.at === 'key' || !seen.has(formatPath(f.path)));
    for (const f of kept) if (f.at !== 'key') seen.add(formatPath(f.path));
    out.push(...kept);
  }
  return out;
}
