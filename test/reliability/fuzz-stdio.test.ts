/**
 * Property-based protocol fuzzing over real stdio pipes: the CLI serving a
 * skills folder and the live.mjs fixture, on every revision (legacy sessions
 * after initialize 2025-06-18 / 2025-11-25, and 2026-07-28 per-request
 * `_meta`). Every line the server writes must be a schema-valid JSON-RPC
 * message of the right revision; after every batch a probe request must be
 * answered (no hang); the process must never die; and its RSS, sampled after
 * equal rounds of large hostile input, must stay flat.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RevisionName } from '../_schema.js';
import { RawStdioClient } from '../_stdio-client.js';
import { isModernShaped, modern } from '../_wire.js';
import { type Era, fuzzCase, fuzzSeed } from './_fuzz.js';
import { BIN, FIXTURE, GUARD, type Message, MiB, memoryFlat, rssOf, SentRequests, SOAK, VALID_SKILLS } from './_harness.js';
import { Figures, writeSection } from './_report.js';

const TARGETS = [
  { name: 'skillport serve (skills folder)', script: BIN, args: ['serve', VALID_SKILLS, '--log-level', 'silent'] },
  { name: 'live.mjs fixture', script: FIXTURE, args: [] },
] as const;
const MODES: Array<{ revision: RevisionName; era: Era }> = [
  { revision: '2025-06-18', era: 'legacy' },
  { revision: '2025-11-25', era: 'legacy' },
  { revision: '2026-07-28', era: 'modern' },
];
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const ROUNDS = SOAK ? 20 : 7;
const { seed: SEED, replay: REPLAY } = fuzzSeed('test/reliability/fuzz-stdio.test.ts', ['FUZZ_RUNS', RUNS]);

const figures = new Figures();
let totalCases = 0;
let totalResponses = 0;

/** A line as the server parses it: UTF-8 with invalid sequences replaced (as its line reader decodes), then JSON. */
function readAsServer(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Drives one process: sends batches, validates everything it writes, probes for liveness. */
class StdioFuzzTarget {
  readonly client: RawStdioClient;
  readonly problems: string[] = [];
  /** What was sent under each id: a reply may answer any of them (ids repeat on purpose). */
  readonly sent = new SentRequests();
  cases = 0;
  #checked = 0;
  #probe = 0;

  readonly revision: RevisionName;

  constructor(script: string, args: readonly string[], revision: RevisionName) {
    this.client = RawStdioClient.spawn(script, [...args]);
    this.revision = revision;
  }

  async start(): Promise<void> {
    if (this.revision === '2026-07-28') return;
    this.sent.record('init', 'initialize', false);
    const init = await this.client.request(
      'initialize',
      { protocolVersion: this.revision, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      'init',
    );
    expect(init.result?.protocolVersion).toBe(this.revision);
    this.client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Sends lines in one write (so duplicate ids overlap), then a probe; validates what came back. */
  async batch(lines: Buffer[]): Promise<boolean> {
    if (this.client.exitInfo) return false;
    for (const line of lines) {
      // What the server reads, not the value a case was built from: a byte inserted into a
      // key ("params", "_meta") turns a 2026 request into one without the envelope.
      const value = readAsServer(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      const m = value as Message;
      if (!('id' in m) || typeof m.method !== 'string') continue;
      this.sent.record(m.id, m.method, isModernShaped(m.params));
    }
    this.client.write(Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')])), true);
    this.cases += lines.length;
    await this.client.drained();
    const id = `probe-${++this.#probe}`;
    this.sent.record(id, 'server/discover', true);
    const probe = await this.client.request('server/discover', modern(), id).catch((error: Error) => error);
    if (probe instanceof Error) {
      this.problems.push(probe.message);
      return false;
    }
    this.check();
    return this.problems.length === 0 && this.client.garbage.length === 0;
  }

  check(): void {
    const messages = this.client.received;
    for (; this.#checked < messages.length; this.#checked++) {
      const m = messages[this.#checked] as Message;
      if (!('id' in m)) {
        // Notifications the server sends (listen acknowledgements, list changes).
        if (typeof m.method !== 'string' || !m.method.startsWith('notifications/')) this.problems.push(`odd message ${JSON.stringify(m).slice(0, 300)}`);
        continue;
      }
      totalResponses++;
      // In the modern process a request without the envelope is answered by legacy rules (no session): 2025-11-25 shapes.
      const problem = this.sent.judge(m, this.revision === '2026-07-28' ? '2025-11-25' : this.revision);
      if (problem !== undefined) this.problems.push(problem);
    }
  }
}

afterAll(() => {
  figures.add('Fuzz cases sent over stdio (all targets and revisions)', totalCases);
  figures.add('Responses received and schema-validated', totalResponses >= 1000 ? `${Math.floor(totalResponses / 100) * 100}+` : totalResponses);
  writeSection(
    'fuzz-stdio',
    `### Protocol fuzzing over stdio\n\nSeed ${SEED} (\`FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\` replays it), ${RUNS} property runs per target and revision (batches of 1 to 25 lines).\n\n${figures.table()}`,
  );
});

describe('stdio fuzzing', () => {
  for (const target of TARGETS) {
    for (const mode of MODES) {
      it(`${target.name}, ${mode.revision}: every reply is schema-valid, probes are answered, the process lives`, {
        tags: ['schema'],
        timeout: 120_000 * GUARD,
      }, async () => {
        const fuzz = new StdioFuzzTarget(target.script, target.args, mode.revision);
        try {
          await fuzz.start();
          await fc.assert(
            fc.asyncProperty(fc.array(fuzzCase(mode.era), { minLength: 1, maxLength: 25 }), async (cases) => fuzz.batch(cases.map((c) => c.bytes))),
            { numRuns: RUNS, seed: SEED, endOnFailure: true },
          );
        } finally {
          fuzz.check();
          totalCases += fuzz.cases;
          figures.add(`${target.name}, ${mode.revision}`, `${fuzz.cases} cases, ${fuzz.problems.length} problems`);
          // The seed goes with every failure: a finally that throws hides fast-check's own report.
          expect(fuzz.client.garbage, `non-JSON lines on stdout; seed ${SEED}, replay: ${REPLAY}`).toEqual([]);
          expect(fuzz.problems, `seed ${SEED}, replay: ${REPLAY}`).toEqual([]);
          expect(fuzz.client.exitInfo, `the server died (seed ${SEED}, replay: ${REPLAY}); stderr: ${fuzz.client.stderr.slice(-3000)}`).toBeUndefined();
          // stdin EOF: the server answers what it has, ends listens, and exits 0.
          expect(await fuzz.client.close()).toEqual({ code: 0, signal: null });
        }
      });
    }
  }

  for (const target of TARGETS) {
    it(`${target.name}: RSS stays flat over rounds of large hostile input`, { tags: ['schema'], timeout: 120_000 * GUARD }, async () => {
      const fuzz = new StdioFuzzTarget(target.script, target.args, '2025-11-25');
      await fuzz.start();
      const big = 'x'.repeat(2 * MiB);
      const echo = target.script === FIXTURE ? { name: 'multiline', arguments: { text: big } } : { name: 'greeting', arguments: { who: big } };
      const samples: number[] = [];
      const rounds = ROUNDS;
      const cases = fc.sample(fuzzCase('legacy'), { numRuns: 150, seed: SEED });
      for (let round = 0; round < rounds; round++) {
        const lines: Buffer[] = [];
        for (let i = 0; i < 8; i++) lines.push(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: `big-${round}-${i}`, method: 'prompts/get', params: echo })));
        for (let i = 0; i < 3; i++)
          lines.push(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: `over-${round}-${i}`, method: 'ping', params: { pad: 'y'.repeat(5 * MiB) } })));
        for (let i = 0; i < 3; i++) lines.push(Buffer.from(`${'['.repeat(300_000)}${']'.repeat(300_000)}`));
        for (const c of cases) lines.push(c.bytes);
        expect(await fuzz.batch(lines), `seed ${SEED}, replay: ${REPLAY}\n${fuzz.problems.join('\n')}`).toBe(true);
        await fuzz.client.waitFor((m) => m.id === `big-${round}-7`);
        // The first round only warms the heap up; it is not a sample.
        if (round > 0) samples.push(rssOf(fuzz.client.pid));
      }
      totalCases += fuzz.cases;
      const inMiB = samples.map((s) => Math.round(s / MiB));
      figures.add(
        `${target.name}: RSS after rounds 2..${rounds} (~${Math.round(fuzz.cases / rounds)} lines, ~38 MiB in per round)`,
        SOAK ? `${inMiB.join(', ')} MiB` : 'flat (within 96 MiB)',
      );
      expect(memoryFlat(samples, 96 * MiB), `RSS MiB per round: ${inMiB.join(', ')}`).toBe(true);
      expect(fuzz.problems, `seed ${SEED}, replay: ${REPLAY}`).toEqual([]);
      expect(await fuzz.client.close()).toEqual({ code: 0, signal: null });
    });
  }
});
