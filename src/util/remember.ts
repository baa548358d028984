/**
 * A pure function of a string, its answers kept by argument: for one asked
 * again and again with a handful of values (the names of the headers a
 * handler reads, the `Host` its clients send), where a lookup costs a tenth
 * of the work. At most `most` answers are kept; past that it starts over,
 * so a caller sending ever new values grows nothing.
 */
export function remembering<T extends NonNullable<unknown>>(answer: (value: string) => T, most: number): (value: string) => T {
  const answers = new Map<string, T>();
  return (value) => {
    let known = answers.get(value);
    if (known === undefined) {
      known = answer(value);
      if (answers.size >= most) answers.clear();
      answers.set(value, known);
    }
    return known;
  };
}
