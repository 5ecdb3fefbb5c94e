// PostgreSQL text and jsonb cannot hold U+0000, and a lone UTF-16 surrogate has no UTF-8 encoding: either
// fails only when written, as a 500 after earlier writes may already have happened. Validation refuses
// them up front instead, in any string of a body, path or query, and in any object key.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isStorable = (text: string): boolean => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/** A path as a chain to its parent: built in constant time per value, spelled out only when reported. */
interface Step {
  readonly parent: Step | undefined;
  readonly key: PropertyKey;
}

const spelled = (step: Step | undefined): PropertyKey[] => {
  const path: PropertyKey[] = [];
  for (let at = step; at !== undefined; at = at.parent) path.unshift(at.key);
  return path;
};

/** The path of every string (value or key) in `input` that could not be stored. Iterative, so no input
 *  is too deep to inspect. */
export const unstorableTextPaths = (input: unknown): PropertyKey[][] => {
  const found: PropertyKey[][] = [];
  const pending: [unknown, Step | undefined][] = [[input, undefined]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, at] = next;
    if (typeof value === 'string') {
      if (!isStorable(value)) found.push(spelled(at));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const step = { parent: at, key: Array.isArray(value) ? Number(key) : key };
        if (!isStorable(key)) found.push(spelled(step));
        pending.push([child, step]);
      }
    }
  }
  return found;
};
