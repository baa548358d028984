// Summarizes a V8 .cpuprofile (node --cpu-prof): self time per function and
// per area (skillport dist/, node internals, dependencies, GC, idle).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

export function summarizeProfile(file, root, top = 12) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas ?? [];
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = Math.max(0, deltas[i + 1] ?? deltas[i] ?? 0);
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const fns = new Map();
  const areas = new Map();
  for (const [id, us] of self) {
    const node = byId.get(id);
    const cf = node.callFrame;
    let url = cf.url || '';
    if (url.startsWith('file://')) url = relative(root, new URL(url).pathname);
    const name = cf.functionName || (url ? '(anonymous)' : cf.functionName || '(native)');
    const where = url ? `${url}:${cf.lineNumber + 1}` : '';
    const key = `${name} ${where}`;
    fns.set(key, { name, where, us: (fns.get(key)?.us ?? 0) + us });
    let area;
    if (name === '(idle)') area = 'idle';
    else if (name === '(garbage collector)') area = 'GC';
    else if (name === '(program)') area = 'V8/native (program)';
    else if (url.startsWith('dist/')) area = `skillport ${url.split('/').slice(0, 2).join('/')}`;
    else if (url.includes('node_modules/')) area = 'dependencies';
    else if (url.startsWith('node:') || (!url && name)) area = 'node internals / native';
    else area = url || 'other';
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const busy = total - (areas.get('idle') ?? 0);
  const functions = [...fns.values()]
    .filter((f) => f.name !== '(idle)')
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((f) => ({ ...f, share: f.us / busy }));
  const byArea = [...areas.entries()]
    .filter(([a]) => a !== 'idle')
    .sort((a, b) => b[1] - a[1])
    .map(([area, us]) => ({ area, us, share: us / busy }));
  return { totalMs: total / 1000, busyMs: busy / 1000, functions, byArea };
}
