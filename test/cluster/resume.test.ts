/**
 * A 2025 session's GET stream resumed on another replica, through nginx
 * (deploy/nginx/skillport.conf, sticky by Mcp-Session-Id): the official v1
 * client's stream is cut, prompts/list_changed notifications are sent while
 * it is (the replica holding the session stores them in Redis), that replica
 * is SIGKILLed, and the client's own reconnection with Last-Event-ID lands on
 * another replica, which restores the session, replays each missed
 * notification exactly once and goes on live.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuttableGets } from '../_http-client.js';
import { Figures, writeSection } from '../reliability/_report.js';
import { rawPromptNames } from './_clients.js';
import { type Cluster, startCluster, upstreamsOf } from './_cluster.js';
import { until } from './_processes.js';

const MISSED = 3;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** Adds a skill to the served folder (renamed in whole: one change) and waits until `replicaUrl` serves it. */
async function addSkill(name: string, replicaUrl: string): Promise<void> {
  const staging = join(dirname(cluster.folder), 'staging', name);
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'SKILL.md'), `---\nname: ${name}\ndescription: Added while the stream is cut.\n---\nHello.\n`);
  renameSync(staging, join(cluster.folder, name));
  await until(`${replicaUrl} to serve ${name}`, async () => (await rawPromptNames(replicaUrl)).includes(name));
}

describe('a GET stream cut and resumed on another replica', () => {
  it('gets each notification sent while it was cut exactly once, then live ones', async () => {
    const { fetch: fetchFn, gets, letThrough } = cuttableGets();
    const transport = new StreamableHTTPClientTransport(new URL(cluster.nginx.url), { fetch: fetchFn });
    const client = new Client({ name: 'resume-cluster', version: '1' });
    let heard = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      heard++;
    });
    await client.connect(transport);
    const sessionId = transport.sessionId as string;
    // nginx logs a GET when it ends; the session's POSTs name the replica its GET stream went to (sticky).
    await until('the GET stream to open', () => gets[0]?.primed === true && upstreamsOf(cluster.nginx.accessLog(), 'POST', sessionId).size === 1);
    const holderAt = [...upstreamsOf(cluster.nginx.accessLog(), 'POST', sessionId)][0];
    const holder = cluster.replicas.find((replica) => `127.0.0.1:${replica.port}` === holderAt);
    if (!holder) throw new Error(`no replica at ${holderAt}`);

    // Cut, then changes the holder sends on the stream while it is cut: stored in Redis.
    gets[0]?.abort.abort();
    const redis = createClient({ url: cluster.redis.url });
    await redis.connect();
    try {
      for (let i = 0; i < MISSED; i++) await addSkill(`missed-${i}`, holder.url);
      await until('the holder to store the missed notifications', async () => {
        const keys = await redis.keys(`skillport:events:${sessionId}:g*`);
        // Each change also changes the resources and tools: only the prompt list's are counted.
        const events = keys.length === 1 ? await redis.lRange(keys[0] as string, 0, -1) : [];
        return events.filter((event) => event.includes('notifications/prompts/list_changed')).length === MISSED;
      });
    } finally {
      await redis.close();
    }
    expect(heard).toBe(0);

    await holder.kill();
    try {
      const before = cluster.nginx.accessLog().length;
      letThrough();
      await until('the client to hear the missed notifications', () => heard >= MISSED);
      expect(gets[1]?.lastEventId).toMatch(/^g[0-9a-f]{32}_1$/);
      // The cut GET ends in the log too (at the holder); any other replica there is where it resumed.
      await until('nginx to log a GET elsewhere', async () => {
        await client.listPrompts();
        return [...upstreamsOf(cluster.nginx.accessLog().slice(before), 'POST', sessionId)].some((at) => at !== holderAt);
      });
      const resumedOn = new Set([...upstreamsOf(cluster.nginx.accessLog().slice(before), 'POST', sessionId)].filter((at) => at !== holderAt));
      expect(resumedOn.size).toBeGreaterThan(0);
      expect(resumedOn.has(holderAt as string)).toBe(false);
      // The replica that resumed the stream writes it now: a later change arrives live, once.
      await holder.start();
      const other = cluster.replicas.find((replica) => resumedOn.has(`127.0.0.1:${replica.port}`));
      await addSkill('live-after', (other ?? holder).url);
      await until('the client to hear the live one', () => heard >= MISSED + 1);
      // Time for a duplicate to arrive, if one were on its way.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(heard).toBe(MISSED + 1);
      const figures = new Figures();
      figures.add('Notifications sent while the GET stream was cut / heard after resuming on another replica', `${MISSED} / ${heard - 1}`);
      writeSection('cluster-resume', `### Cluster: a GET stream resumed on another replica (test:cluster)\n\n${figures.table()}`);
    } finally {
      if (holder.pid === undefined) await holder.start();
      await client.close();
    }
  });
});
