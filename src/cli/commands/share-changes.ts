/**
 * Catalogue changes between replicas (`serve --http --redis`): when this
 * replica's folder changes (its watcher, a reload a request caused, or a new
 * commit of a git source, from its poll or a webhook), it publishes on the
 * change bus, with the commit for a git source; when another replica
 * publishes, this one reloads its own folder, or fetches at once for a git
 * source that does not serve that commit yet (so every replica converges on
 * a commit within a fetch, not a poll interval). A reload that finds nothing new tells no client
 * anything, so a change seen by several replicas still reaches each client
 * stream once: from the replica that holds the stream.
 */
import type { ChangeBus } from '../../http.js';
import type { Logger } from '../../index.js';
import type { GitSkillsFolder, SkillsFolder } from '../../skills.js';

/** Wires `folder` to `bus`; returns the function that unwires it. */
export function shareChanges(folder: SkillsFolder | GitSkillsFolder, bus: ChangeBus, logger: Logger): () => void {
  const git = 'sync' in folder ? folder : undefined;
  let syncing = 0;
  let queued = false;

  function changed(): void {
    // A reload the bus asked for is another replica's change, already published.
    if (syncing > 0 || queued) return;
    queued = true;
    // One message for the several events one reload emits (prompts, resources, skills).
    queueMicrotask(() => {
      queued = false;
      bus.publish(git ? { revision: git.commit } : {}).catch((error: unknown) => logger.warn('Cannot tell other replicas of a catalogue change', error));
    });
  }

  const stops = [folder.prompts.watch?.(changed), folder.resources.watch?.(changed), folder.skills.watch?.(changed)];
  stops.push(
    bus.subscribe((change) => {
      if (git && change.revision === git.commit) return;
      syncing++;
      logger.debug('Another replica changed the catalogue; reloading');
      // A git fetch that fails or a commit refused here logs its own reason and keeps the last good one.
      const synced = git ? git.sync().then(undefined, () => undefined) : folder.reload();
      synced.finally(() => syncing--);
    }),
  );
  return () => {
    for (const stop of stops) stop?.();
  };
}
