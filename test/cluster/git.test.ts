/**
 * Three replicas serving one git repository (`git+file://` to a bare
 * repository in the temp folder) with a long --pull-interval, sharing one
 * Redis. A push is announced by a GitHub-style webhook at one replica only,
 * as teams deploy it; the others must learn of the commit through the change
 * bus (their own poll is an hour away). Every replica then serves the new
 * commit and every listening client, a 2026-07-28 listen stream and a
 * legacy GET stream on each replica, hears of it exactly once. A replica
 * whose own fetch fails keeps serving the last good commit.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpSend, modernHeaders } from '../_http-client.js';
import { modern } from '../_wire.js';
import { Figures, writeSection } from '../reliability/_report.js';
import { createRepo, skillMd } from '../skills/git/_repo.js';
import { type Closers, legacyClient, modernClient, rawPromptNames } from './_clients.js';
import { type Cluster, startCluster } from './_cluster.js';
import { until } from './_processes.js';

const SECRET = 'cluster webhook secret';
/** Far beyond the test: only the webhook and the change bus can bring a commit. */
const PULL_INTERVAL_S = 3600;

let repo: ReturnType<typeof createRepo>;
let cluster: Cluster;
const closers: Closers = [];

beforeAll(async () => {
  repo = createRepo({
    'alpha/SKILL.md': skillMd('alpha', 'The first skill of the repository.'),
    'beta/SKILL.md': skillMd('beta', 'The second skill of the repository.'),
  });
  cluster = await startCluster({
    source: `git+${repo.url}#main`,
    args: (i, dir) => ['--pull-interval', String(PULL_INTERVAL_S), '--cache-dir', join(dir, `git-cache-${i}`)],
    env: { SKILLPORT_HOOK_SECRET: SECRET },
  });
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});
afterAll(async () => {
  await cluster?.stop();
  repo?.remove();
});

/** A raw 2026-07-28 request straight to a replica (no client cache answers it): its result, or its error as thrown. */
async function rawCall(url: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = { jsonrpc: '2.0', id: 1, method, params: modern(params) };
  const answer = JSON.parse((await httpSend(url, { headers: modernHeaders(body), body: JSON.stringify(body) })).body);
  if (answer.error) throw new Error(`${method} at ${url}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

/** POST /hooks/git at `replica` as GitHub sends it: the raw body signed with HMAC-SHA256 of the shared secret. */
async function pushHook(replicaUrl: string, commit: string): Promise<number> {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: commit });
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const answer = await fetch(new URL('/hooks/git', replicaUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': signature },
    body,
    signal: AbortSignal.timeout(5000),
  });
  await answer.arrayBuffer();
  return answer.status;
}

describe('a cluster serving a git repository', () => {
  it('brings a pushed commit to every replica and every listening client exactly once, from a webhook at one replica', async () => {
    for (const replica of cluster.replicas) expect((await rawPromptNames(replica.url)).sort()).toEqual(['alpha', 'beta']);

    // One 2026 listen stream and one legacy GET stream straight to each replica: which replica holds which is known.
    const modernSeen = [0, 0, 0];
    const legacySeen = [0, 0, 0];
    const legacy: Array<{ streams: () => number }> = [];
    for (const [i, replica] of cluster.replicas.entries()) {
      const client = await modernClient(replica.url, closers);
      client.setNotificationHandler('notifications/prompts/list_changed', () => {
        modernSeen[i] = (modernSeen[i] ?? 0) + 1;
      });
      const subscription = await client.listen({ promptsListChanged: true }, { timeout: 5000 });
      closers.push(() => subscription.close());
      const one = await legacyClient(replica.url, closers);
      one.client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
        legacySeen[i] = (legacySeen[i] ?? 0) + 1;
      });
      legacy.push(one);
    }
    await until('every legacy GET stream to open', () => legacy.every((one) => one.streams() === 1));

    const second = repo.push({ 'gamma/SKILL.md': skillMd('gamma', 'Added by a second commit.') });
    const pushedAt = Date.now();
    const [hooked] = cluster.replicas;
    expect(await pushHook(hooked?.url as string, second)).toBe(202);

    // Raw requests straight to each replica: the v2 client would answer from its cache (ttlMs).
    const converged: number[] = [];
    await until(
      'every replica to serve the new commit',
      async () => {
        for (const [i, replica] of cluster.replicas.entries()) {
          if (converged[i] !== undefined) continue;
          if ((await rawPromptNames(replica.url)).includes('gamma')) converged[i] = Date.now() - pushedAt;
        }
        return converged.filter((t) => t !== undefined).length === 3;
      },
      30_000,
    );
    await until('every listener to hear of it', () => [...modernSeen, ...legacySeen].every((n) => n >= 1));
    // Time for a duplicate to arrive, if one were on its way.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    // Each replica says which commit it serves: the pushed one, fetched by itself.
    for (const replica of cluster.replicas) {
      expect(replica.log.some((line) => line.includes(`at commit ${second.slice(0, 12)}`))).toBe(true);
    }
    const figures = new Figures();
    figures.add(
      'Source / replicas / listeners (2026 listen streams + legacy GET streams), each straight to its replica',
      `git+file:// bare repository / 3 / 3 + 3`,
    );
    figures.add(
      'How replicas learn of the push',
      `GitHub-signed POST /hooks/git at the first; the others only through Redis (--pull-interval ${PULL_INTERVAL_S})`,
    );
    figures.add('Time from push to each replica serving the new commit (ms; hook debounce 250 ms, then a git fetch each)', converged.join(', '));
    figures.add('prompts/list_changed per 2026 listener (replicas 1, 2, 3)', modernSeen.join(', '));
    figures.add('prompts/list_changed per legacy listener (replicas 1, 2, 3)', legacySeen.join(', '));
    const all = [...modernSeen, ...legacySeen];
    figures.add('Listeners told twice or more / never', `${all.filter((n) => n > 1).length} / ${all.filter((n) => n === 0).length}`);
    writeSection('cluster-git', `### Cluster: a git push (test:cluster)\n\nTimings vary run to run; the counts must not.\n\n${figures.table()}`);
    expect(modernSeen).toEqual([1, 1, 1]);
    expect(legacySeen).toEqual([1, 1, 1]);
  });

  it('brings a force-push revert to a commit served before to every replica, whose reads then work', async () => {
    const all = async (what: string, check: (names: string[]) => boolean) =>
      until(what, async () => (await Promise.all(cluster.replicas.map((r) => rawPromptNames(r.url)))).every(check), 30_000);
    // A (epsilon), then B (delta, and alpha changed), each announced at one replica.
    const a = repo.push({ 'epsilon/SKILL.md': skillMd('epsilon', 'Added before the revert.'), 'epsilon/notes.md': 'notes of A\n' });
    expect(await pushHook(cluster.replicas[0]?.url as string, a)).toBe(202);
    await all('every replica to serve A', (names) => names.includes('epsilon'));
    const b = repo.push({ 'delta/SKILL.md': skillMd('delta', 'Reverted later.'), 'epsilon/notes.md': 'notes of B\n' });
    expect(await pushHook(cluster.replicas[1]?.url as string, b)).toBe(202);
    await all('every replica to serve B', (names) => names.includes('delta'));
    const logged = cluster.replicas.map((r) => r.log.length);

    // Back to A by force-push, announced at the third replica.
    repo.force(a);
    expect(await pushHook(cluster.replicas[2]?.url as string, a)).toBe(202);
    await all('every replica to serve A again', (names) => !names.includes('delta') && names.includes('epsilon'));
    for (const [i, replica] of cluster.replicas.entries()) {
      const prompt = (await rawCall(replica.url, 'prompts/get', { name: 'epsilon' })) as { messages: Array<{ content: { text: string } }> };
      expect(prompt.messages[0]?.content.text).toContain('Added before the revert.');
      const read = (await rawCall(replica.url, 'resources/read', { uri: 'skill://epsilon/notes.md' })) as { contents: Array<{ text: string }> };
      expect(read.contents[0]?.text).toBe('notes of A\n');
      // The log comes down a pipe of its own: the line may land after the catalogue already serves A.
      await until(`replica ${i} to log commit A`, () => replica.log.slice(logged[i]).some((line) => line.includes(`at commit ${a.slice(0, 12)}`)));
      expect(replica.log.slice(logged[i]).filter((line) => /error|failed|not served/i.test(line))).toEqual([]);
    }
  });

  it('keeps serving the last good commit at a replica whose own fetch fails', async () => {
    const replica = cluster.replicas[1];
    if (!replica) throw new Error('no second replica');
    const before = (await rawPromptNames(replica.url)).sort();
    expect(before).toContain('gamma');
    const logged = replica.log.length;
    repo.move(true);
    try {
      expect(await pushHook(replica.url, '0'.repeat(40))).toBe(202);
      await until('the replica to log the failed fetch', () => replica.log.slice(logged).some((line) => /Fetching .* failed; still serving commit/.test(line)));
    } finally {
      repo.move(false);
    }
    expect((await rawPromptNames(replica.url)).sort()).toEqual(before);
    expect((await fetch(new URL('/readyz', replica.url))).status).toBe(200);
  });
});
