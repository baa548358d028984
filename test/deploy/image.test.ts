/**
 * The container image (Dockerfile): built on a Node 20 Debian base, run with
 * its defaults, and used as a deployment would: the official SDK v1 client
 * over the published port, Docker's own HEALTHCHECK, a non-root user with
 * git, and `docker stop` (SIGTERM) answered by a drain and exit code 0.
 *
 * Image registries may be out of reach, so the base is built here from
 * Debian's packages and this machine's Node (base-image.sh, kept between
 * runs); SKILLPORT_IMAGE_BASE names another, e.g. node:20-bookworm-slim.
 * Without a Docker engine the file is skipped with one line saying why,
 * unless SKILLPORT_REQUIRE_DOCKER=1 (.ci/run), which fails it instead.
 * `npm run test:image` (vitest.image.config.ts); not part of `npm test`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';
import { freePort, until } from '../cluster/_processes.js';
import { baseImage, buildBase, docker, extraCaCerts, imageSize, megabytes, npmRegistry, run, unavailable } from './_docker.js';

const IMAGE = 'skillport-test:ci';
/** What the runtime stage may add to its base (issue 22), in docker's decimal megabytes. */
const MAX_ADDED_BYTES = 40e6;

const skip = await unavailable();
if (skip !== undefined) {
  if (process.env.SKILLPORT_REQUIRE_DOCKER === '1') throw new Error(`SKILLPORT_REQUIRE_DOCKER=1 but ${skip}`);
  process.stderr.write(`skipped the container image tests: ${skip}\n`);
}

/** The skills bundled in skills/: each folder with a SKILL.md is served as a prompt of its name. */
const BUNDLED = readdirSync(`${ROOT}skills`).filter((name) => existsSync(`${ROOT}skills/${name}/SKILL.md`));

describe.skipIf(skip !== undefined)('the container image', () => {
  const container = `skillport-image-test-${process.pid}`;
  let port = 0;
  let started = false;
  let client: Client | undefined;
  const sizes = { base: 0, image: 0 };

  beforeAll(async () => {
    await buildBase();
    const registry = await npmRegistry();
    const ca = extraCaCerts();
    const args = ['build', '--build-arg', `BASE=${baseImage()}`, '-t', IMAGE];
    if (registry !== undefined) args.push('--build-arg', `NPM_CONFIG_REGISTRY=${registry}`);
    if (ca !== '') args.push('--build-arg', `NPM_EXTRA_CA_CERTS=${ca}`);
    const building = Date.now();
    await docker([...args, ROOT], 20 * 60_000);
    const seconds = Math.round((Date.now() - building) / 1000);
    sizes.base = await imageSize(baseImage());
    sizes.image = await imageSize(IMAGE);
    console.log(
      `base ${baseImage()} ${megabytes(sizes.base)}, image ${megabytes(sizes.image)}, ` +
        `added ${megabytes(sizes.image - sizes.base)} (at most ${megabytes(MAX_ADDED_BYTES)}); built in ${seconds} s`,
    );

    port = await freePort();
    // The image's own CMD; a short health interval so the test need not wait 30 s for Docker's first probe.
    await docker(['run', '-d', '--name', container, '-p', `127.0.0.1:${port}:8080`, '--health-interval', '1s', '--health-start-period', '30s', IMAGE]);
    started = true;
    await until(
      'the container to answer /healthz',
      async () => {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) });
        await response.arrayBuffer();
        return response.ok;
      },
      60_000,
    );
  });

  // A failed test shows what the server said.
  afterEach(async ({ task }) => {
    if (!started || !task.result?.errors?.length) return;
    const logs = await run('docker', ['logs', container]);
    process.stderr.write(`log of ${container}:\n${logs.stdout}${logs.stderr}`);
  });

  afterAll(async () => {
    await client?.close().catch(() => {});
    // -v: the anonymous volumes of /skills and the git cache go with it.
    if (started) await run('docker', ['rm', '-f', '-v', container]);
  });

  it('adds at most 40 MB to its base image', () => {
    expect(sizes.base).toBeGreaterThan(0);
    expect(sizes.image - sizes.base).toBeLessThanOrEqual(MAX_ADDED_BYTES);
  });

  it('serves the bundled skills to the SDK v1 client at the published port', async () => {
    expect(BUNDLED).toContain('commit-message');
    client = new Client({ name: 'image-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(BUNDLED));
    const { messages } = await client.getPrompt({ name: 'commit-message' });
    expect(messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('# Commit message') });
  });

  it("reports healthy through the image's HEALTHCHECK", async () => {
    let status = '';
    await until(
      'Docker to find the container healthy',
      async () => {
        status = await docker(['inspect', '--format', '{{.State.Health.Status}}', container]);
        if (status === 'unhealthy') throw new Error('unhealthy');
        return status === 'healthy';
      },
      60_000,
    ).catch(async (error: Error) => {
      const log = await run('docker', ['inspect', '--format', '{{json .State.Health}}', container]);
      throw new Error(`${error.message}: health ${status}, ${log.stdout}`);
    });
    expect(status).toBe('healthy');
  });

  it('runs as a user other than root, with git on its PATH', async () => {
    expect(await docker(['exec', container, 'id', '-u'])).toBe('10001');
    expect(await docker(['exec', container, 'git', '--version'])).toMatch(/^git version \d+\.\d+/);
  });

  it('drains on docker stop (SIGTERM) and exits 0, with the stop in its log', async () => {
    // The v1 client's session is still open (with its GET stream, if it opened one): the drain ends it.
    await docker(['stop', '-t', '10', container], 60_000);
    const state = JSON.parse(await docker(['inspect', '--format', '{{json .State}}', container])) as { ExitCode: number; OOMKilled: boolean };
    // 137 would be SIGKILL after the 10 s: a stop that did not drain.
    expect({ exitCode: state.ExitCode, oomKilled: state.OOMKilled }).toEqual({ exitCode: 0, oomKilled: false });
    const logs = await run('docker', ['logs', container]);
    const lines = `${logs.stdout}${logs.stderr}`.split('\n');
    const stopping = lines.indexOf('skillport info: stopping: finishing the requests in flight');
    expect(stopping).toBeGreaterThan(-1);
    expect(lines.indexOf('skillport info: stopped')).toBeGreaterThan(stopping);
  });
});
