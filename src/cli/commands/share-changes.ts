/**
 * Catalogue changes between replicas (`serve --http --redis`): when this
 * replica's folder changes (its watcher, or a reload a request caused), it
 * publishes on the change bus; when another replica publishes, this one
 * reloads its own folder. A reload that finds nothing new tells no client
 * anything, so a change seen by several replicas still reaches each client
 * stream once: from the replica that holds the stream.
 */
import type { ChangeBus } from '../../http.js';
import type { Logger } from '../../index.js';
import type { SkillsFolder } from '../../skills.js';

/** Wires `folder` to `bus`; returns the function that unwires it. */
export function shareChanges(folder: SkillsFolder, bus: ChangeBus, logger: Logger): () => void {
  let syncing = 0;
  let queued = false;

  function changed(): void {
    // A reload the bus asked for is another replica's change, already published.
    if (syncing > 0 || queued) return;
    queued = true;
    // One message for the several events one reload emits (prompts, resources, skills).
    queueMicrotask(() => {
      queued = false;
      bus.publish({}).catch((error: unknown) => logger.warn('Cannot tell other replicas of a catalogue change', error));
    });
  }

  const stops = [folder.prompts.watch?.(changed), folder.resources.watch?.(changed), folder.skills.watch?.(changed)];
  stops.push(
    bus.subscribe(() => {
      syncing++;
      logger.debug('Another replica changed the catalogue; reloading');
      folder.reload().finally(() => syncing--);
    }),
  );
  return () => {
    for (const stop of stops) stop?.();
  };
}
