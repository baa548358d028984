/**
 * Trimming by a set of characters, in linear time. A pattern such as
 * `/[ \t]+$/` is quadratic on a long run of those characters followed by
 * anything else (the engine retries the run from every position in it), and
 * the text it would be used on comes from files and clients.
 */

/** `text` without the characters of `chars` at its end. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the characters of `chars` at either end. */
export function trimOf(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start] as string)) start++;
  return trimEndOf(text.slice(start), chars);
}
