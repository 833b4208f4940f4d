// Values worked out once per owner and key, and kept while the owner lives: a calendar's release of a week, a
// session's close on a date, a measure of a series. The owner is an object (held weakly); `limit` bounds the
// keys kept per owner (past it, the owner's values are worked out anew).

export type Kept<O extends object, V> = (owner: O, key: string, work: () => V) => V;

export function keptPerOwner<O extends object, V>(limit = Number.POSITIVE_INFINITY): Kept<O, V> {
  const owners = new WeakMap<O, Map<string, { value: V }>>();
  return (owner, key, work) => {
    let values = owners.get(owner);
    if (!values) {
      values = new Map();
      owners.set(owner, values);
    }
    const held = values.get(key);
    if (held) return held.value;
    const value = work();
    if (values.size >= limit) values.clear();
    values.set(key, { value });
    return value;
  };
}
