/**
 * Property-based protocol fuzzing over Streamable HTTP: the same hostile
 * messages as the stdio fuzzer, POSTed with right, wrong and missing
 * headers to a real node:http server (the live-http.mjs fixture and a
 * skills folder), in a legacy session of each 2025 revision and as 2026-07-28
 * requests. Every answer must carry a status the spec allows and, when it
 * has a body, schema-valid JSON-RPC messages; probes must keep being
 * answered; the process must live and its RSS stay flat.
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { httpSend, messagesOf, modernHeaders } from '../_http-client.js';
import type { RevisionName } from '../_schema.js';
import { isModernShaped, modern } from '../_wire.js';
import { type Era, fuzzCase, fuzzSeed } from './_fuzz.js';
import { GUARD, HTTP_FIXTURE, HttpChild, httpBuilt, type Message, MiB, memoryFlat, ROOT, responseProblems, rssOf, SOAK, VALID_SKILLS } from './_harness.js';
import { Figures, writeSection } from './_report.js';

const RUNS = Number(process.env.FUZZ_HTTP_RUNS ?? 120);
const { seed: SEED, replay: REPLAY } = fuzzSeed('test/reliability/fuzz-http.test.ts', ['FUZZ_HTTP_RUNS', RUNS]);
/** Statuses the Streamable HTTP transport may answer a POST with (basic/transports). */
const ALLOWED = new Set([200, 202, 204, 400, 404, 405, 406, 409, 413, 415]);

const TARGETS = [
  { name: 'live-http.mjs fixture', script: `${ROOT}test/fixtures/servers/live-http.mjs`, env: {} },
  { name: 'skills folder', script: HTTP_FIXTURE, env: { RELIABILITY_OPTIONS: JSON.stringify({ dir: VALID_SKILLS }) } },
];
const MODES: Array<{ revision: RevisionName; era: Era }> = [
  { revision: '2025-06-18', era: 'legacy' },
  { revision: '2025-11-25', era: 'legacy' },
  { revision: '2026-07-28', era: 'modern' },
];

const figures = new Figures();
let totalCases = 0;

/** Header mutations a hostile client makes. */
const headerMutation = fc.constantFrom<string>('none', 'none', 'none', 'none', 'content-type', 'accept', 'version', 'session', 'method', 'name', 'origin');

function mutateHeaders(headers: Record<string, string>, mutation: string): Record<string, string> {
  const out = { ...headers };
  switch (mutation) {
    case 'content-type':
      out['Content-Type'] = 'text/plain';
      break;
    case 'accept':
      out.Accept = 'text/html';
      break;
    case 'version':
      out['MCP-Protocol-Version'] = '1999-01-01';
      break;
    case 'session':
      out['Mcp-Session-Id'] = 'not-a-session';
      break;
    case 'method':
      out['Mcp-Method'] = '=?base64?!!!?=';
      break;
    case 'name':
      out['Mcp-Name'] = 'other';
      break;
    case 'origin':
      out.Origin = 'http://evil.example';
      break;
  }
  return out;
}

class HttpFuzzTarget {
  readonly server: HttpChild;
  readonly agent = new Agent({ keepAlive: true, maxSockets: 8 });
  readonly problems: string[] = [];
  session: string | undefined;
  url!: URL;
  cases = 0;
  #probe = 0;
  readonly revision: RevisionName;

  constructor(script: string, env: Record<string, string>, revision: RevisionName) {
    this.server = new HttpChild(script, [], env);
    this.revision = revision;
  }

  async start(): Promise<void> {
    this.url = await this.server.url;
    if (this.revision === '2026-07-28') return;
    const body = {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: this.revision, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    };
    const answer = await httpSend(this.url, { headers: this.legacyHeaders(), body: JSON.stringify(body), agent: this.agent });
    expect(answer.status).toBe(200);
    this.session = answer.headers['mcp-session-id'] as string;
    expect(this.session).toBeTruthy();
    await httpSend(this.url, {
      headers: this.legacyHeaders(),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      agent: this.agent,
    });
  }

  legacyHeaders(): Record<string, string> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: this.url.host };
    if (this.session) {
      headers['Mcp-Session-Id'] = this.session;
      headers['MCP-Protocol-Version'] = this.revision;
    }
    return headers;
  }

  async one(bytes: Buffer, value: unknown, mutation: string): Promise<void> {
    const modernShaped = typeof value === 'object' && value !== null && isModernShaped((value as Message).params);
    const base = this.revision === '2026-07-28' || modernShaped ? modernHeaders(value, this.url) : this.legacyHeaders();
    const headers = mutateHeaders(base, mutation);
    // A long name mirrored into Mcp-Name makes the head larger than node's cap: 431, then node closes the connection.
    const hugeHead = Object.values(headers).join('').length > 16_000;
    const answer = await httpSend(this.url, { headers, body: bytes, agent: hugeHead ? false : this.agent }).catch((error: Error) => error);
    this.cases++;
    if (answer instanceof Error) {
      if (!(hugeHead && /ECONNRESET|EPIPE/.test(answer.message)))
        this.problems.push(`request failed: ${answer.message} (${mutation}, ${bytes.length} bytes: ${bytes.toString('latin1').slice(0, 200)})`);
      return;
    }
    if (!ALLOWED.has(answer.status) && !(answer.status === 403 && mutation === 'origin') && !(answer.status === 431 && hugeHead))
      this.problems.push(`status ${answer.status} for ${bytes.toString('latin1').slice(0, 200)}: ${answer.body.slice(0, 300)}`);
    if ((answer.status === 202 || answer.status === 204) && answer.body !== '') this.problems.push(`${answer.status} with a body`);
    const { messages, garbage } = messagesOf(answer.headers['content-type'] as string | undefined, answer.body);
    if (garbage.length > 0) this.problems.push(`unparseable body ${garbage.join(' | ')}`);
    const method = typeof value === 'object' && value !== null ? (value as Message).method : undefined;
    for (const message of messages) {
      const m = message as Message;
      if (!('id' in m)) continue;
      const revisions: RevisionName[] = modernShaped || this.revision === '2026-07-28' ? ['2026-07-28', '2025-11-25'] : [this.revision];
      const outcomes = revisions.flatMap((r) => [responseProblems(r, m, typeof method === 'string' ? method : undefined), responseProblems(r, m)]);
      if (!outcomes.some((p) => p.length === 0)) this.problems.push(`${outcomes[0]?.join('; ')} in ${JSON.stringify(m).slice(0, 400)}`);
    }
  }

  async batch(cases: Array<{ bytes: Buffer; value: unknown; mutation: string }>): Promise<boolean> {
    if (this.server.child.exitCode !== null) return false;
    await Promise.all(cases.map((c) => this.one(c.bytes, c.value, c.mutation)));
    const probe = { jsonrpc: '2.0', id: `probe-${++this.#probe}`, method: 'server/discover', params: modern() };
    const answer = await httpSend(this.url, { headers: modernHeaders(probe, this.url), body: JSON.stringify(probe), agent: this.agent }).catch(
      (error: Error) => error,
    );
    if (answer instanceof Error || answer.status !== 200) this.problems.push(`probe failed: ${answer instanceof Error ? answer.message : answer.status}`);
    return this.problems.length === 0;
  }
}

afterAll(() => {
  figures.add('Fuzz cases POSTed over HTTP (all targets and revisions)', totalCases);
  writeSection(
    'fuzz-http',
    httpBuilt()
      ? `### Protocol fuzzing over Streamable HTTP\n\nSeed ${SEED} (\`FUZZ_SEED=${SEED} FUZZ_HTTP_RUNS=${RUNS}\` replays it), ${RUNS} property runs per target and revision (1 to 12 concurrent POSTs each, a quarter with a wrong header).\n\n${figures.table()}`
      : '### Protocol fuzzing over Streamable HTTP\n\nNot run: `dist/http.js` was not built.',
  );
});

describe.skipIf(!httpBuilt())('HTTP fuzzing', () => {
  for (const target of TARGETS) {
    for (const mode of MODES) {
      it(`${target.name}, ${mode.revision}: allowed statuses, schema-valid bodies, probes answered, the process lives`, {
        tags: ['schema'],
        timeout: 120_000 * GUARD,
      }, async () => {
        const fuzz = new HttpFuzzTarget(target.script, target.env, mode.revision);
        try {
          await fuzz.start();
          const item = fc.record({ c: fuzzCase(mode.era), mutation: headerMutation }).filter(({ c }) => {
            // A listen request holds its stream open until cancelled: it is exercised in the limits tests instead.
            const v = c.value as Message | undefined;
            return !(typeof v === 'object' && v !== null && v.method === 'subscriptions/listen');
          });
          await fc.assert(
            fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 12 }), async (cases) =>
              fuzz.batch(cases.map(({ c, mutation }) => ({ bytes: c.bytes, value: c.value, mutation }))),
            ),
            { numRuns: RUNS, seed: SEED, endOnFailure: true },
          );
        } finally {
          totalCases += fuzz.cases;
          figures.add(`${target.name}, ${mode.revision}`, `${fuzz.cases} cases, ${fuzz.problems.length} problems`);
          fuzz.agent.destroy();
          // The seed goes with every failure: a finally that throws hides fast-check's own report.
          expect(
            fuzz.problems,
            `seed ${SEED}, replay: ${REPLAY}\n${fuzz.server.stderr
              .split('\n')
              .filter((l) => !l.startsWith('debug'))
              .slice(-30)
              .join('\n')}`,
          ).toEqual([]);
          expect(fuzz.server.child.exitCode, `the server died (seed ${SEED}, replay: ${REPLAY}): ${fuzz.server.stderr.slice(-2000)}`).toBeNull();
          expect(await fuzz.server.stop()).toEqual({ code: 0, signal: null });
        }
      });
    }
  }

  it('skills folder: RSS stays flat over rounds of large hostile POSTs', { tags: ['schema'], timeout: 120_000 * GUARD }, async () => {
    const fuzz = new HttpFuzzTarget(HTTP_FIXTURE, { RELIABILITY_OPTIONS: JSON.stringify({ dir: VALID_SKILLS }) }, '2025-11-25');
    await fuzz.start();
    const cases = fc
      .sample(fc.record({ c: fuzzCase('modern'), mutation: headerMutation }), { numRuns: 120, seed: SEED })
      .filter(({ c }) => (c.value as Message | undefined)?.method !== 'subscriptions/listen');
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 'big',
      method: 'prompts/get',
      params: modern({ name: 'greeting', arguments: { who: 'x'.repeat(2 * MiB) } }),
    });
    const over = Buffer.alloc(5 * MiB, 'y');
    const samples: number[] = [];
    const rounds = SOAK ? 20 : 7;
    for (let round = 0; round < rounds; round++) {
      const work = cases.map(({ c, mutation }) => ({ bytes: c.bytes, value: c.value, mutation }));
      for (let i = 0; i < 6; i++) work.push({ bytes: Buffer.from(big), value: JSON.parse(big), mutation: 'none' });
      for (let i = 0; i < 3; i++) work.push({ bytes: over, value: undefined, mutation: 'none' });
      expect(await fuzz.batch(work), `seed ${SEED}, replay: ${REPLAY}\n${fuzz.problems.join('\n')}`).toBe(true);
      if (round > 0) samples.push(rssOf(fuzz.server.pid));
    }
    totalCases += fuzz.cases;
    fuzz.agent.destroy();
    figures.add(
      `skills folder: RSS after rounds 2..${rounds} (~130 POSTs, ~30 MiB in per round)`,
      SOAK ? `${samples.map((s) => Math.round(s / MiB)).join(', ')} MiB` : 'flat (within 96 MiB)',
    );
    expect(memoryFlat(samples, 96 * MiB), `RSS MiB per round: ${samples.map((s) => Math.round(s / MiB)).join(', ')}`).toBe(true);
    expect(await fuzz.server.stop()).toEqual({ code: 0, signal: null });
  });
});
