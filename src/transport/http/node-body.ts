/**
 * A node:http request body: read whole up to a cap and a shared budget, or,
 * when the answer comes before it was read, dropped so the connection stays
 * usable.
 */
import type { IncomingMessage } from 'node:http';
import type { BodyBudget } from './request.js';

/**
 * Reads a node request body up to `max` bytes; undefined when it is larger,
 * `busy` when `budget` refuses a chunk. A body read whole stays taken from the
 * budget until the caller gives it back; any other is given back here.
 */
export function readNodeBody(req: IncomingMessage, contentLength: string | null, max: number, budget: BodyBudget): Promise<Uint8Array | undefined | 'busy'> {
  const declared = Number(contentLength ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve(undefined);
  if (req.complete && req.readableEnded) return Promise.resolve(new Uint8Array());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    // Once settled, the listeners left on `req` do nothing: cheaper than taking four off. They
    // go with `req`, which lives as long as its answer (a listen request's, as long as the client
    // likes), so they must hold nothing large: the body and the promise it settled (through its
    // resolving functions) are let go here. After 'end' only 'close' can still come, and it must
    // not give the budget back twice.
    let settle: { resolve: typeof resolve; reject: typeof reject } | undefined = { resolve, reject };
    const settled = (): { resolve: typeof resolve; reject: typeof reject } | undefined => {
      const once = settle;
      settle = undefined;
      return once;
    };
    const onData = (chunk: Buffer): void => {
      if (settle === undefined) return;
      const refusal = total + chunk.length > max ? undefined : budget.take(chunk.length, total) ? null : 'busy';
      if (refusal !== null) {
        budget.give(total);
        chunks.length = 0;
        // The adapter drops or refuses the rest once the answer is ready (discardRest takes 'data' over).
        req.pause();
        settled()?.resolve(refusal);
        return;
      }
      total += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      const once = settled();
      if (once === undefined) return;
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
      chunks.length = 0;
      once.resolve(body);
    };
    const onFailure = (error: Error): void => {
      const once = settled();
      if (once === undefined) return;
      budget.give(total);
      once.reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFailure);
    // 'close' comes for every request, after its answer too: an Error (a stack trace) only when it matters.
    req.on('close', () => {
      if (settle !== undefined) onFailure(new Error('The client closed the request before its body ended'));
    });
  });
}

/** Most bytes of an unread request body dropped to keep its connection usable; past that it is closed. */
const DISCARD_LIMIT = 8 * 1024 * 1024;

/**
 * The handler answered without reading the whole body (413, 406, 415, 401...).
 * Read the rest and drop it, so the client reads the answer and can send its
 * next request on the connection: closing with unread data makes the kernel
 * reset the connection, and the client may lose the answer with it. A body
 * too large to be worth reading closes the connection instead. Returns
 * whether the answer must say `Connection: close`.
 */
export function discardRest(req: IncomingMessage, contentLength: string | null): boolean {
  const declared = Number(contentLength ?? Number.NaN);
  if (Number.isFinite(declared) && declared > DISCARD_LIMIT) return true;
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_LIMIT) req.socket.destroy();
  });
  req.resume();
  return false;
}
