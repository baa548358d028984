export function median(xs) {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** Percentile (0-100) of an unsorted numeric array, nearest-rank. */
export function percentile(xs, p) {
  if (xs.length === 0) return Number.NaN;
  const v = Float64Array.from(xs).sort();
  const rank = Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1));
  return v[rank];
}

export const fmt = {
  n: (x, d = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : 'n/a'),
  ms: (x) => (Number.isFinite(x) ? (Math.abs(x) < 1 ? x.toFixed(3) : Math.abs(x) < 10 ? x.toFixed(2) : x.toFixed(1)) : 'n/a'),
  ratio: (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : 'n/a'),
  mb: (b) => (Number.isFinite(b) ? `${(b / 1048576).toFixed(1)} MB` : 'n/a'),
  kb: (b) => (Number.isFinite(b) ? `${(b / 1024).toFixed(2)} KB` : 'n/a'),
  pct: (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : 'n/a'),
};
