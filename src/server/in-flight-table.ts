/**
 * The requests in flight on one connection, by id. The first is kept in a
 * slot of its own, and a Map is made only when two are in flight at once: a
 * 2026-07-28 HTTP request makes a connection for itself alone, and a Map
 * costs about 400 bytes to make and more again to shrink once emptied
 * (PERFORMANCE.md, Allocation).
 */
import type { RequestId } from '../jsonrpc/messages.js';

export class InFlightTable<T extends object> {
  #id: RequestId | undefined = undefined;
  #entry: T | undefined = undefined;
  #more: Map<RequestId, T> | undefined = undefined;

  has(id: RequestId): boolean {
    return (this.#entry !== undefined && this.#id === id) || (this.#more?.has(id) ?? false);
  }

  get(id: RequestId): T | undefined {
    return this.#entry !== undefined && this.#id === id ? this.#entry : this.#more?.get(id);
  }

  /** Adds a request whose id is not in flight (the caller checked with {@link has}). */
  set(id: RequestId, entry: T): void {
    if (this.#entry === undefined) {
      this.#id = id;
      this.#entry = entry;
    } else (this.#more ??= new Map()).set(id, entry);
  }

  delete(id: RequestId): void {
    if (this.#entry !== undefined && this.#id === id) {
      this.#id = undefined;
      this.#entry = undefined;
    } else this.#more?.delete(id);
  }

  /** Every request in flight, as a list taken now. */
  values(): T[] {
    const all = this.#entry === undefined ? [] : [this.#entry];
    if (this.#more) for (const entry of this.#more.values()) all.push(entry);
    return all;
  }
}
