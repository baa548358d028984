/**
 * The batch span processor of the OpenTelemetry SDK specification (§Batching
 * processor), for finished spans only: a bounded queue (a span that finds it
 * full is dropped and counted, never waited for), exported a batch at a
 * time when a batch is full or the schedule delay has passed since the
 * first span queued, one export at a time; `shutdown` exports what is left
 * within the export timeout. Its timer never holds the process open.
 */
import type { SpanRecord } from './spans.js';

/** Sends one batch; resolves whether or not the batch arrived (the sender reports its own failures). */
export type ExportBatch = (spans: readonly SpanRecord[], signal: AbortSignal) => Promise<void>;

export interface BatchOptions {
  readonly scheduleDelayMs: number;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
  readonly exportTimeoutMs: number;
}

export interface BatchProcessor {
  /** Queues a finished span; drops it when the queue is full. */
  add(span: SpanRecord): void;
  /** Exports every span queued so far; resolves once they are sent or the export timeout has passed. */
  flush(): Promise<void>;
  /** Stops taking spans and flushes. */
  shutdown(): Promise<void>;
  /** Spans dropped because the queue was full. */
  readonly dropped: number;
}

interface State {
  readonly options: BatchOptions;
  readonly send: ExportBatch;
  readonly onFirstDrop: () => void;
  queue: SpanRecord[];
  timer: ReturnType<typeof setTimeout> | undefined;
  running: Promise<void> | undefined;
  dropped: number;
  closed: boolean;
}

/** Sends `batch`, never rejecting. */
async function sendSafely(state: State, batch: readonly SpanRecord[]): Promise<void> {
  try {
    await state.send(batch, AbortSignal.timeout(state.options.exportTimeoutMs));
  } catch {
    // The sender reports its own failures; a batch that failed is gone, as the SDK's processor drops it.
  }
}

/** Exports full batches while there are any, then arms the timer for the rest. */
async function drain(state: State): Promise<void> {
  while (state.queue.length >= state.options.maxExportBatchSize) await sendSafely(state, state.queue.splice(0, state.options.maxExportBatchSize));
}

function arm(state: State): void {
  if (state.timer !== undefined || state.closed || state.queue.length === 0) return;
  state.timer = setTimeout(() => {
    state.timer = undefined;
    start(state, true);
  }, state.options.scheduleDelayMs);
  state.timer.unref?.();
}

/** Starts an export unless one runs; `all` sends a partial batch too (the timer fired). */
function start(state: State, all: boolean): void {
  if (state.running !== undefined) return;
  const run = async () => {
    if (all && state.queue.length > 0) await sendSafely(state, state.queue.splice(0, state.options.maxExportBatchSize));
    await drain(state);
  };
  state.running = run().finally(() => {
    state.running = undefined;
    arm(state);
  });
}

async function flushAll(state: State): Promise<void> {
  if (state.timer !== undefined) clearTimeout(state.timer);
  state.timer = undefined;
  const deadline = AbortSignal.timeout(state.options.exportTimeoutMs);
  const timedOut = new Promise<void>((resolve) => deadline.addEventListener('abort', () => resolve(), { once: true }));
  const all = async () => {
    await state.running;
    while (state.queue.length > 0 && !deadline.aborted) await sendSafely(state, state.queue.splice(0, state.options.maxExportBatchSize));
  };
  await Promise.race([all(), timedOut]);
}

/** A batch processor that hands batches to `send`; `onFirstDrop` is told the first time the queue overflows. */
export function createBatchProcessor(options: BatchOptions, send: ExportBatch, onFirstDrop: () => void): BatchProcessor {
  const state: State = { options, send, onFirstDrop, queue: [], timer: undefined, running: undefined, dropped: 0, closed: false };
  return {
    add(span) {
      if (state.closed) return;
      if (state.queue.length >= options.maxQueueSize) {
        if (state.dropped++ === 0) state.onFirstDrop();
        return;
      }
      state.queue.push(span);
      if (state.queue.length >= options.maxExportBatchSize) start(state, false);
      else arm(state);
    },
    flush: () => flushAll(state),
    async shutdown() {
      state.closed = true;
      await flushAll(state);
    },
    get dropped() {
      return state.dropped;
    },
  };
}
