import type { CST } from 'yaml';

// Nesting limit. YAML's composer and every walker after it recurse once per
// level, so a file of 10,000 `[` would end in "Maximum call stack size
// exceeded". The parser's tokens are checked first, without recursion.

/** Far above what robot.yaml needs (5 levels), far below what overflows the stack. */
export const MAX_DEPTH = 64;

export function depthMessage(): string {
  return `nesting deeper than ${MAX_DEPTH} levels: a robot.yaml needs at most 5`;
}

/** Offset of the first collection nested deeper than `limit`, if any. */
export function tooDeep(tokens: readonly CST.Token[], limit = MAX_DEPTH): number | undefined {
  const stack: Array<[CST.Token, number]> = tokens.map((t) => [t, 0]);
  while (stack.length) {
    const [token, depth] = stack.pop() as [CST.Token, number];
    if (token.type === 'document') {
      if (token.value) stack.push([token.value, depth]);
      continue;
    }
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > limit) return token.offset;
    for (const item of token.items as CST.CollectionItem[]) {
      if (item.key) stack.push([item.key, depth + 1]);
      if (item.value) stack.push([item.value, depth + 1]);
    }
  }
  return undefined;
}
