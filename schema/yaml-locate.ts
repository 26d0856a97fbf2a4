import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { at, formatPath, keyText, type Finding, type Located, type ParsedYaml, type Segment } from './yaml-doc.js';

// A finding's path → line and column. Each map is indexed once, on first use,
// so locating E findings in a map of N entries is O(N + E), not O(N × E).

interface Target {
  key: Node | null;
  value: Node | null;
}

type Index = Map<string, Pair<unknown, unknown>>;

export class Locator {
  private readonly indexes = new WeakMap<YAMLMap, Index>();

  constructor(private readonly parsed: Pick<ParsedYaml, 'doc' | 'lines'>) {}

  locate(f: Finding): Located {
    const { key, value } = this.find(f.pointAt ?? f.path);
    const node = f.at === 'key' ? key ?? value : isEmpty(value) ? key ?? value : value;
    const offset = node?.range ? node.range[0] : 0;
    return at(this.parsed.lines, offset, formatPath(f.path), f.message);
  }

  /** The key and value nodes at a path; stops at the deepest node that exists. */
  private find(path: Segment[]): Target {
    const doc: Document = this.parsed.doc;
    let target: Target = { key: null, value: (doc.contents as Node | null) ?? null };
    for (const seg of path) {
      let node: unknown = target.value;
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        const pair = this.index(node).get(String(seg));
        if (!pair) break;
        target = { key: (pair.key as Node | null) ?? null, value: (pair.value as Node | null) ?? null };
      } else if (isSeq(node) && typeof seg === 'number' && node.items[seg] !== undefined) {
        target = { key: null, value: node.items[seg] as Node };
      } else {
        break;
      }
    }
    return target;
  }

  // The last pair of a key wins, as in the loaded data.
  private index(map: YAMLMap): Index {
    let index = this.indexes.get(map);
    if (!index) {
      index = new Map();
      for (const pair of map.items) index.set(keyText(pair.key), pair);
      this.indexes.set(map, index);
    }
    return index;
  }
}

// `url:` with nothing after it: point at the key rather than past the colon.
function isEmpty(node: Node | null): boolean {
  if (!node?.range) return true;
  return isScalar(node) && node.value === null && node.range[0] === node.range[1];
}
