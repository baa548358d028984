/**
 * The per-caller bound on tasks (`createServer({ tasks: { maxTasksPerOwner } })`;
 * 2025-11-25 basic/utilities/tasks §Security Considerations, Resource
 * Management: receivers SHOULD limit concurrent tasks per requestor): past
 * it the caller's oldest finished tasks go, and a running task past it is
 * refused (server/tasks.ts `start` deletes it and answers -32603).
 */
import { isTerminal, type TaskRecord, type TaskStore } from '../core/tasks.js';

/**
 * Whether `id`, just listed among `owner`'s tasks, fits under `max`.
 * Checked once the id is listed, so starts that race see one order and the
 * first ones win (a check before listing let them all through). Under the
 * bound every listed task fits and none goes, so no record is read: over
 * shared state each read is a round trip, and a start used to pay one per
 * task its caller kept. `read` is the runner's, which also marks failed a
 * task whose runner's lease ran out.
 */
export async function fitsBound(
  store: TaskStore,
  read: (id: string) => Promise<TaskRecord | undefined>,
  max: number,
  owner: string | undefined,
  id: string,
): Promise<boolean> {
  const ids = await store.owned(owner);
  if (ids.length <= max) return true;
  const records = await Promise.all(ids.map(read));
  let excess = ids.length - max;
  const running: string[] = [];
  for (const [index, known] of ids.entries()) {
    const record = records[index];
    if (record && !isTerminal(record.status)) running.push(known);
    else if (excess > 0) {
      await store.delete(known);
      excess--;
    }
  }
  return running.indexOf(id) < max;
}
