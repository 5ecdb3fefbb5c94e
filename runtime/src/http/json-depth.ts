/** Whether `value` nests arrays and objects more than `max` levels deep (a scalar is level 0).
 *  Iterative, so it answers for any depth JSON.parse can produce. */
export const nestsDeeperThan = (value: unknown, max: number): boolean => {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
};
