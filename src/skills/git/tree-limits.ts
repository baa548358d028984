/**
 * What a checkout would write, measured before it is written. A commit's
 * size on disk has nothing to do with the size of its fetch: one blob of
 * zeros compresses to almost nothing, and a tree may name it under any
 * number of paths (256 MiB under four paths: a fetch of about 1 MiB that
 * writes 1 GiB). `git ls-tree -r -t -l` lists every entry of the tree served
 * with its size, from the objects already fetched; the listing is read as it
 * comes, and git is stopped at the first limit passed.
 */
import { type GitRunner, runGit } from './run-git.js';

/** What one checkout may hold. */
export interface CheckoutLimits {
  /** Bytes of the largest file: the catalogue's `limits.maxFileBytes`, which serves no larger file anyway. */
  maxFileBytes: number;
  /** Entries (files, folders, links) of the tree served: the catalogue's `limits.maxEntries`, where its walk stops. */
  maxEntries: number;
  /** Bytes of all files together. */
  maxBytes: number;
}

/** Default of `maxCheckoutBytes`: sixteen skills at the Skills extension's 16 MiB budget each. */
export const DEFAULT_MAX_CHECKOUT_BYTES = 256 * 1024 * 1024;

/** A commit whose tree passes a limit: refused for good, as it will not shrink. */
export class CheckoutLimitError extends Error {
  override name = 'CheckoutLimitError';
}

/** Longest entry of the listing kept while it is read: no path git can write is longer (PATH_MAX is 4096). */
const MAX_ENTRY = 64 * 1024;

/**
 * Reads the entries of `tree` (an object id, in the repository `gitDir`)
 * and throws a {@link CheckoutLimitError} at the first limit passed. `folder`
 * is where the tree sits in the repository ('' for its root), to name a path
 * as the repository does.
 */
export async function measureTree(runner: GitRunner, gitDir: string, tree: string, folder: string, limits: CheckoutLimits): Promise<void> {
  let pending = '';
  let entries = 0;
  let bytes = 0;
  const entry = (record: string) => {
    // `<mode> SP <type> SP <object> SP+ <size or -> TAB <path>`
    const tab = record.indexOf('\t');
    const size = Number(record.slice(0, tab).trim().split(' ').pop());
    const path = JSON.stringify(folder === '' ? record.slice(tab + 1) : `${folder}/${record.slice(tab + 1)}`);
    if (++entries > limits.maxEntries) throw new CheckoutLimitError(`it has more than limits.maxEntries (${limits.maxEntries}) entries`);
    if (!Number.isFinite(size)) return;
    if (size > limits.maxFileBytes) throw new CheckoutLimitError(`${path} has ${size} bytes, more than limits.maxFileBytes (${limits.maxFileBytes})`);
    bytes += size;
    if (bytes > limits.maxBytes) throw new CheckoutLimitError(`its files have more than maxCheckoutBytes (${limits.maxBytes}) in all`);
  };
  const read = (chunk: string) => {
    const records = (pending + chunk).split('\0');
    pending = records.pop() as string;
    for (const record of records) entry(record);
    if (pending.length > MAX_ENTRY) throw new CheckoutLimitError(`an entry of its tree is longer than ${MAX_ENTRY} characters`);
  };
  await runGit(runner, [`--git-dir=${gitDir}`, 'ls-tree', '-r', '-t', '-l', '-z', '--end-of-options', tree], { read });
}
