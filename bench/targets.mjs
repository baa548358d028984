// The targets table, as data: what each target asks, its threshold, and the
// cells of RESULTS.json it reads (paths into `results`). `evaluate` fills in
// each cell's value, pass or miss and by how much; a missed cell's `profile`
// says what the profile phase runs to show where its time goes.
import { COLD_SERVERS, COLD_SIZES, cellKey, ERA_LABEL, ERAS, HTTP_SERVERS } from './config.mjs';
import { WORKLOADS } from './lib/wire.mjs';

const workload = (id) => WORKLOADS.find((w) => w.id === id);
const peerHttpCells = HTTP_SERVERS.filter((s) => s.peer).flatMap((s) => s.eras.map((era) => cellKey(s.id, era)));

/** skillport's req/s ÷ the floor's on one workload, both revisions. */
function throughput(id, threshold) {
  const w = workload(id);
  return {
    id: `http-${id}`,
    what: `${w.label}: skillport req/s ÷ the strict floor's, same round, median of rounds`,
    op: '>=',
    threshold,
    unit: 'ratio',
    margin: 'relative',
    cells: ERAS.map((era) => ({
      label: `${id}, ${ERA_LABEL[era]}`,
      path: ['http', 'table', id, cellKey('skillport', era), 'toFloor'],
      profile: { kind: 'http', workload: id, era },
    })),
  };
}

/** skillport's stdio prompts/get ÷ the floor's, sequential or pipelined, both revisions (issue 26 asks 0.8× over stdio too). */
function stdio(mode, field, threshold) {
  return {
    id: `stdio-${mode}`,
    what: `stdio prompts/get with arguments, ${mode}: skillport ÷ the strict floor, same round, median of rounds`,
    op: '>=',
    threshold,
    unit: 'ratio',
    margin: 'relative',
    cells: ERAS.map((era) => ({ label: `stdio ${mode}, ${ERA_LABEL[era]}`, path: ['stdio', 'table', cellKey('skillport', era), field] })),
  };
}

export const TARGETS = [
  throughput('list', 1.0),
  throughput('get', 0.8),
  throughput('complete', 0.8),
  throughput('get4k', 0.9),
  throughput('get4k-get', null),
  stdio('sequential', 'seqToFloor', 0.8),
  stdio('pipelined', 'pipeToFloor', 0.8),
  {
    id: 'http-p99',
    what: 'HTTP p99 below every official SDK and FastMCP setup on the same workload (any revision)',
    op: '<',
    threshold: 'the lowest peer p99',
    unit: 'ms',
    margin: 'relative',
    cells: WORKLOADS.flatMap((w) =>
      ERAS.map((era) => ({
        label: `${w.id}, ${ERA_LABEL[era]}`,
        path: ['http', 'table', w.id, cellKey('skillport', era), 'p99'],
        boundMin: peerHttpCells.map((key) => ['http', 'table', w.id, key, 'p99']),
        profile: { kind: 'http', workload: w.id, era },
      })),
    ),
  },
  {
    id: 'memory',
    what: 'No growth of RSS over a sustained run (second half: end ÷ start − 1, 5% allowed for allocator noise)',
    op: '<=',
    threshold: 0.05,
    unit: 'fraction',
    margin: 'absolute',
    cells: [{ label: 'skillport HTTP, RSS growth', path: ['memory', 'runs', 'skillport', 'growth'] }],
  },
  {
    id: 'cold',
    what: 'Cold start to the first prompts/list within 100 ms of the floor’s (same N prompts in code, same round)',
    op: '<=',
    threshold: 100,
    unit: 'ms',
    margin: 'absolute',
    cells: COLD_SIZES.map((n) => ({
      label: `skillport library, N=${n.toLocaleString('en-US')}`,
      path: ['cold', 'table', 'skillport-lib', 'sizes', String(n), 'overFloorMs'],
      profile: { kind: 'cold', id: 'skillport-lib', n },
    })),
  },
  {
    id: 'cold-cli',
    what: `Cold start of ${COLD_SERVERS.find((c) => c.id === 'skillport-cli').label}, ms over the floor’s`,
    op: '<=',
    threshold: null,
    unit: 'ms',
    margin: 'absolute',
    cells: COLD_SIZES.map((n) => ({
      label: `skillport serve DIR, N=${n.toLocaleString('en-US')}`,
      path: ['cold', 'table', 'skillport-cli', 'sizes', String(n), 'overFloorMs'],
    })),
  },
];

/** Reads a path; arrays of rows (cold.table) are matched by their `id`. */
function at(results, path) {
  let v = results;
  for (const key of path) {
    if (v === undefined || v === null) return undefined;
    v = Array.isArray(v) ? v.find((row) => row.id === key) : v[key];
  }
  return v;
}

const PASS = { '>=': (v, b) => v >= b, '<': (v, b) => v < b, '<=': (v, b) => v <= b };

/**
 * Each target with its cells' values. `margin` is how far a cell is from its
 * bound, positive when met: relative to the bound (0.72 against 0.8 is -10%)
 * or absolute, in the target's unit, as the target's `margin` says.
 */
export function evaluate(results, targets = TARGETS) {
  return targets.map((t) => {
    const cells = t.cells.map((c) => {
      const value = at(results, c.path);
      let bound = typeof t.threshold === 'number' ? t.threshold : undefined;
      let boundFrom;
      if (c.boundMin) {
        for (const p of c.boundMin) {
          const v = at(results, p);
          if (Number.isFinite(v) && !(v >= bound)) [bound, boundFrom] = [v, p.at(-2)];
        }
      }
      const measured = Number.isFinite(value);
      const judged = measured && Number.isFinite(bound);
      const met = judged ? PASS[t.op](value, bound) : null;
      let margin = null;
      if (judged && t.margin === 'relative') margin = t.op === '>=' ? value / bound - 1 : 1 - value / bound;
      else if (judged) margin = t.op === '>=' ? value - bound : bound - value;
      // Comparable across units: an absolute margin as a fraction of its bound.
      const shortfall = margin === null ? null : t.margin === 'relative' ? margin : margin / Math.abs(bound);
      const { boundMin, ...cell } = c;
      return { ...cell, value: measured ? value : null, bound: bound ?? null, boundFrom: boundFrom ?? null, met, margin, shortfall };
    });
    const judged = cells.filter((c) => c.met !== null);
    const status = t.threshold === null ? 'reported' : judged.length === 0 ? 'not measured' : judged.every((c) => c.met) ? 'met' : 'missed';
    return { ...t, cells, status };
  });
}
