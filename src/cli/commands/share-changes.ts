/**
 * Catalogue changes between replicas (`serve --http --redis`): when this
 * replica's folder changes (its watcher, a reload a request caused, or a new
 * commit of a git source, from its poll or a webhook), it publishes on the
 * change bus, with the commit for a git source; when another replica
 * publishes, this one reloads its own folder, or fetches at once for a git
 * source that does not serve that commit yet (so every replica converges on
 * a commit within a fetch, not a poll interval). Such a fetch may find a
 * newer commit than the one announced: that one is published in turn, or the
 * replica that announced the older one would keep it until its own poll. A
 * reload that finds nothing new tells no client anything, so a change seen by
 * several replicas still reaches each client stream once: from the replica
 * that holds the stream.
 */
import type { ChangeBus } from '../../http.js';
import type { Logger } from '../../index.js';
import type { GitSkillsFolder, SkillsFolder } from '../../skills.js';

/** Wires `folder` to `bus`; returns the function that unwires it. */
export function shareChanges(folder: SkillsFolder | GitSkillsFolder, bus: ChangeBus, logger: Logger): () => void {
  const git = 'sync' in folder ? folder : undefined;
  let syncing = 0;
  let queued = false;
  /** Commits other replicas announced and this one does not serve yet: serving one of them is no news to anyone. */
  const heard: string[] = [];

  /** Whether the commit now served is one another replica announced (then forgotten: a later return to it, a branch reset, is news again). */
  function announced(commit: string): boolean {
    const at = heard.indexOf(commit);
    if (at !== -1) heard.splice(at, 1);
    return at !== -1;
  }

  function changed(): void {
    // A reload of a folder the bus asked for is the other replica's change, already published.
    // A git fetch the bus asked for is judged by the commit it found, below.
    if (queued || (!git && syncing > 0)) return;
    queued = true;
    // One message for the several events one reload emits (prompts, resources, skills).
    queueMicrotask(() => {
      queued = false;
      // A fetch the bus asked for may find a commit newer than the one announced (pushed since):
      // only this replica knows of it, so it is published like a commit its own poll found.
      if (git && announced(git.commit)) return;
      bus.publish(git ? { revision: git.commit } : {}).catch((error: unknown) => logger.warn('Cannot tell other replicas of a catalogue change', error));
    });
  }

  const stops = [folder.prompts.watch?.(changed), folder.resources.watch?.(changed), folder.skills.watch?.(changed)];
  stops.push(
    bus.subscribe((change) => {
      if (git && change.revision !== undefined) {
        if (change.revision === git.commit) return;
        if (!heard.includes(change.revision)) heard.push(change.revision);
        // A few are enough: an announced commit is served (or refused) within a fetch or two.
        if (heard.length > 16) heard.shift();
      }
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
