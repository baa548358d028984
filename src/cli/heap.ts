/**
 * How the CLI shapes V8's heap while a folder loads: the one place that sets
 * V8 flags. Why each step, and what it measured, is written at each function;
 * a library user's process is never touched (only `skillport serve` asks).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Whether the heap may be shaped: only on a V8 the flags were checked on
 * (11.x: Node 20 and 21, 12.x: Node 22 and 23; V8 flags are no stable
 * interface, and V8 prints an error on stderr for one it does not know), and
 * not when the process was started with young-generation settings of its own.
 */
export function leanHeapAllowed(v8Version: string, execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const major = Number(v8Version.split('.')[0]);
  return major >= 11 && major <= 12 && ![...execArgv, nodeOptions ?? ''].some((a) => /semi[-_]space/.test(a));
}

/**
 * Runs `load` with V8's young generation held at its starting size, then
 * collects what the load left behind.
 *
 * Loading a large folder keeps most of what it allocates, and V8 answers that
 * by doubling the young generation up to its 32 MB ceiling, which then stays
 * resident while the server idles (10,000 skills: about 30 MB of the RSS).
 * What lives on is promoted either way, so the load is no slower. Growth is
 * allowed again afterwards (V8's default factor, 2), so a busy server still
 * sizes its young generation to its traffic.
 *
 * What the load used only while it ran (the folder's scan, outgrown tables)
 * was promoted too, and V8's next full collection would come only once the
 * heap had grown well past it: one full collection now gives those pages back
 * (10,000 skills: about 6 ms, and 4 MB of RSS).
 */
export async function loadLean<T>(load: () => Promise<T>): Promise<T> {
  setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return await load();
  } finally {
    // Before growth is allowed again: a full collection also resizes the young generation.
    collectGarbage();
    setFlagsFromString('--semi-space-growth-factor=2');
  }
}

/** One full garbage collection, by the `gc` function V8 gives a new context while `--expose-gc` is set. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
