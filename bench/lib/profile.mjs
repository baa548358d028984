// Summarizes a V8 .cpuprofile (node --cpu-prof, or the inspector's
// Profiler.stop): self time per function, per area (skillport dist/, node
// internals, dependencies, GC, idle), and skillport's own functions.
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
    const area = areaOf(name, url);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const busy = total - (areas.get('idle') ?? 0);
  const functions = [...fns.values()]
    .filter((f) => f.name !== '(idle)')
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((f) => ({ ...f, share: f.us / busy }));
  const own = [...fns.values()]
    .filter((f) => f.where.startsWith('dist/'))
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((f) => ({ ...f, share: f.us / busy }));
  const byArea = [...areas.entries()]
    .filter(([a]) => a !== 'idle')
    .sort((a, b) => b[1] - a[1])
    .map(([area, us]) => ({ area, us, share: us / busy }));
  return { totalMs: total / 1000, busyMs: busy / 1000, samples: profile.samples.length, functions, own, byArea };
}

const NATIVE_IO = new Set([
  'writeUtf8String',
  'writev',
  'writeBuffer',
  'writeLatin1String',
  'read',
  'readdir',
  'openFileHandle',
  'fstat',
  'close',
  'open',
  'lstat',
  'stat',
  'realpath',
  'shutdown',
]);
function areaOf(name, url) {
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)') return 'V8/native (program)';
  if (url.startsWith('dist/')) return `skillport ${url.split('/').slice(0, 3).join('/').replace(/\.js$/, '')}`;
  if (url.includes('node_modules/')) return `dependency ${url.split('node_modules/')[1].split('/')[0]}`;
  if (url.includes('undici')) return 'node: undici (WHATWG Request/Response/Headers)';
  if (url.startsWith('node:internal/webstreams')) return 'node: web streams';
  if (url.startsWith('node:internal/abort_controller') || url === 'node:events' || url.startsWith('node:internal/event_target'))
    return 'node: events / AbortSignal';
  if (
    url.startsWith('node:_http') ||
    url === 'node:http' ||
    url === 'node:net' ||
    url.startsWith('node:internal/stream_base') ||
    url.startsWith('node:internal/streams') ||
    url.startsWith('node:stream')
  )
    return 'node: http / net / streams';
  if (url.startsWith('node:internal/fs') || url === 'node:fs' || url === 'node:path') return 'node: fs / path';
  if (url.startsWith('node:internal/modules') || url.startsWith('node:internal/bootstrap')) return 'node: module loading';
  if (url.startsWith('node:')) return 'node: other internals';
  if (!url && NATIVE_IO.has(name)) return 'native I/O (socket writes, file syscalls)';
  if (!url && (name === 'parse' || name === 'stringify')) return 'JSON.parse / JSON.stringify';
  if (!url) return 'other native';
  return url;
}
