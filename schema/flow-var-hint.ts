// An unquoted `${VAR}` inside `{ … }` or `[ … ]` is read by YAML as the start
// of a nested flow mapping, and the parser then reports a cascade of
// "Unexpected …" errors. Name the cause instead.

export interface FlowVar {
  offset: number;
  reference: string;
}

// `${…}` at the start of a plain value: after `[`, `{`, `,` or a `key:`.
const START_OF_VALUE = /([[{,]|[^\s"'[\]{},]\s*:)\s*(\$\{[^}\s]*\}?)/g;

/** Unquoted `${…}` values inside a flow collection, in file order. */
export function flowVars(text: string): FlowVar[] {
  if (!text.includes('${')) return [];
  const found: FlowVar[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    if (line.includes('${')) {
      for (const m of line.matchAll(START_OF_VALUE)) {
        const at = (m.index ?? 0) + m[0].length - (m[2] ?? '').length;
        if (insideFlow(line.slice(0, at))) found.push({ offset: lineStart + at, reference: m[2] ?? '' });
      }
    }
    lineStart += line.length + 1;
  }
  return found;
}

// More `{`/`[` than `}`/`]` before it on its line (quotes ignored): in flow.
function insideFlow(before: string): boolean {
  const unquoted = before.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '""');
  const open = (unquoted.match(/[[{]/g) ?? []).length;
  const close = (unquoted.match(/[\]}]/g) ?? []).length;
  return open > close;
}

export function flowVarMessage(v: FlowVar): string {
  return `invalid YAML: ${v.reference} inside { … } or [ … ] must be quoted, write "${v.reference}"`;
}
