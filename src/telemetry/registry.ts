/**
 * Metrics kept in memory and written in the Prometheus text exposition
 * format (version 0.0.4): counters, gauges (set, or read when scraped) and
 * histograms, each a family of series by label values. The format is a few
 * lines of text per series; a client library would bring more than it saves.
 *
 * Names follow the OpenTelemetry conventions as Prometheus spells them
 * (OpenTelemetry's Prometheus compatibility: dots become underscores, the
 * unit a suffix, counters end in `_total`). Cardinality is bounded: a
 * family holds at most `maxSeries` series, and what would open another is
 * counted under one series whose labels are all `_OTHER` (the conventions'
 * value for a name outside a known set).
 */

export type Labels = Readonly<Record<string, string | undefined>>;

export interface Counter {
  add(labels?: Labels, by?: number): void;
}

export interface Gauge {
  set(value: number, labels?: Labels): void;
  add(by: number, labels?: Labels): void;
}

export interface Histogram {
  /** Records one value (seconds for a duration). */
  observe(value: number, labels?: Labels): void;
}

interface Series {
  readonly values: readonly string[];
  readonly data: Float64Array;
}

/** Label value to the next level's index, and at the last label to the series. */
type Index = Map<string, Index | Series>;

interface Family {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly labelNames: readonly string[];
  /** Series by their label values joined, in the order first seen; each holds one number, or a histogram's counts then sum. */
  readonly series: Map<string, Series>;
  /** The same series by one label value per level, for the lookups of every request (seriesAt). */
  readonly index: Index;
  /** The series last recorded to: the next request usually records to it again (see #slot). */
  last: Series | undefined;
  readonly buckets?: readonly number[];
  /** A gauge read when scraped. */
  readonly read?: () => Iterable<[Labels, number]>;
}

const SEPARATOR = '\u0000';
const OTHER = '_OTHER';
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label value as the text format escapes it (backslash, double quote, line feed). */
function escapeValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

/** A number as the text format writes it. */
function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/** A set of metric families, written together by {@link MetricsRegistry.collect}. */
export class MetricsRegistry {
  readonly #families = new Map<string, Family>();
  readonly #maxSeries: number;

  constructor(options: { maxSeries?: number } = {}) {
    this.#maxSeries = options.maxSeries ?? 2000;
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const family = this.#family({ name, help, type: 'counter', labelNames });
    return {
      add: (labels, by = 1) => {
        const { data } = this.#slot(family, labels, 1);
        data[0] = (data[0] as number) + by;
      },
    };
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    const family = this.#family({ name, help, type: 'gauge', labelNames });
    return {
      set: (value, labels) => {
        this.#slot(family, labels, 1).data[0] = value;
      },
      add: (by, labels) => {
        const { data } = this.#slot(family, labels, 1);
        data[0] = (data[0] as number) + by;
      },
    };
  }

  /** A gauge whose series `read` gives each time the registry is collected (open sessions: the store's size). */
  gaugeOf(name: string, help: string, labelNames: readonly string[], read: () => Iterable<[Labels, number]>): void {
    this.#family({ name, help, type: 'gauge', labelNames, read });
  }

  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Histogram {
    if (buckets.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= (buckets[i - 1] as number)))) throw new TypeError(`${name}: buckets must increase`);
    const family = this.#family({ name, help, type: 'histogram', labelNames, buckets });
    const size = buckets.length + 2;
    return {
      observe: (value, labels) => {
        const data = this.#slot(family, labels, size).data;
        let i = 0;
        while (i < buckets.length && value > (buckets[i] as number)) i++;
        data[i] = (data[i] as number) + 1;
        data[size - 1] = (data[size - 1] as number) + value;
      },
    };
  }

  /** Every family in the Prometheus text format, families in the order made, series in the order first seen. */
  collect(): string {
    let out = '';
    for (const family of this.#families.values()) {
      const { name, type } = family;
      out += `# HELP ${name} ${escapeHelp(family.help)}\n# TYPE ${name} ${type}\n`;
      if (family.read) {
        for (const [labels, value] of family.read()) out += `${name}${labelText(family.labelNames, valuesOf(family, labels))} ${formatNumber(value)}\n`;
        continue;
      }
      for (const { values, data } of family.series.values()) {
        if (type !== 'histogram') {
          out += `${name}${labelText(family.labelNames, values)} ${formatNumber(data[0] as number)}\n`;
          continue;
        }
        const buckets = family.buckets as readonly number[];
        let cumulative = 0;
        for (let i = 0; i <= buckets.length; i++) {
          cumulative += data[i] as number;
          const le = i < buckets.length ? formatNumber(buckets[i] as number) : '+Inf';
          out += `${name}_bucket${labelText([...family.labelNames, 'le'], [...values, le])} ${cumulative}\n`;
        }
        out += `${name}_sum${labelText(family.labelNames, values)} ${formatNumber(data[buckets.length + 1] as number)}\n`;
        out += `${name}_count${labelText(family.labelNames, values)} ${cumulative}\n`;
      }
    }
    return out;
  }

  #family(family: Omit<Family, 'series' | 'index' | 'last'>): Family {
    if (!NAME.test(family.name)) throw new TypeError(`Not a metric name: ${family.name}`);
    // The same family asked for again (two parts recording one metric) is the one made first.
    const made = this.#families.get(family.name);
    if (made !== undefined) {
      if (made.type !== family.type || made.labelNames.join() !== family.labelNames.join() || family.read)
        throw new TypeError(`The metric ${family.name} is already registered`);
      return made;
    }
    for (const label of family.labelNames) if (!LABEL.test(label) || label === 'le') throw new TypeError(`Not a label name: ${label}`);
    const fresh: Family = { ...family, series: new Map(), index: new Map(), last: undefined };
    this.#families.set(family.name, fresh);
    return fresh;
  }

  /**
   * The series of `labels`. A server's requests mostly repeat the last one's
   * labels (the same method, revision, prompt and transport): comparing them
   * with the last series' values costs less than a map lookup per label.
   */
  #slot(family: Family, labels: Labels | undefined, size: number): Series {
    const last = family.last;
    if (last !== undefined && sameValues(family.labelNames, labels, last.values)) return last;
    const series = seriesAt(family.index, family.labelNames, labels) ?? this.#open(family, labels, size);
    family.last = series;
    return series;
  }

  /** A series seen for the first time: made and indexed, or past the cap, the overflow series. */
  #open(family: Family, labels: Labels | undefined, size: number): Series {
    const values = valuesOf(family, labels);
    const key = values.join(SEPARATOR);
    const made = family.series.get(key);
    if (made !== undefined) return made;
    // Past the cap, one more series at most: the one that counts all the others.
    const other = overflow(family);
    if (family.series.size >= this.#maxSeries && key !== other.join(SEPARATOR))
      return this.#slot(family, Object.fromEntries(family.labelNames.map((n, i) => [n, other[i]])), size);
    const series = { values, data: new Float64Array(size) };
    family.series.set(key, series);
    let node = family.index;
    for (let i = 0; i < values.length - 1; i++) {
      const value = values[i] as string;
      let next = node.get(value) as Index | undefined;
      if (next === undefined) node.set(value, (next = new Map()));
      node = next;
    }
    node.set(values.length === 0 ? '' : (values.at(-1) as string), series);
    return series;
  }
}

/** The label values of the series past the family's cap: every one `_OTHER`. */
function overflow(family: Family): string[] {
  return family.labelNames.map(() => OTHER);
}

/**
 * The series of `labels` in a family's index, or undefined when it is new.
 * Every request observes a few series: a map lookup per label value costs a
 * tenth of building their joined key and hashing it (PERFORMANCE.md, Metrics).
 */
function seriesAt(index: Index, names: readonly string[], labels: Labels | undefined): Series | undefined {
  let node: Index | Series | undefined = index;
  for (let i = 0; i < names.length; i++) {
    node = (node as Index).get(labels?.[names[i] as string] ?? '');
    if (node === undefined) return undefined;
  }
  return names.length === 0 ? ((node as Index).get('') as Series | undefined) : (node as Series);
}

/** Whether `labels` give each of `names` the value in `values` (an absent label is ''). */
function sameValues(names: readonly string[], labels: Labels | undefined, values: readonly string[]): boolean {
  for (let i = 0; i < names.length; i++) if ((labels?.[names[i] as string] ?? '') !== values[i]) return false;
  return true;
}

function valuesOf(family: Family, labels: Labels | undefined): string[] {
  return family.labelNames.map((name) => labels?.[name] ?? '');
}

/** `{a="1",b="2"}`, leaving out empty values (an empty label is no label in Prometheus), or nothing. */
function labelText(names: readonly string[], values: readonly string[]): string {
  let text = '';
  for (let i = 0; i < names.length; i++) {
    const value = values[i] as string;
    if (value === '') continue;
    text += `${text === '' ? '' : ','}${names[i]}="${escapeValue(value)}"`;
  }
  return text === '' ? '' : `{${text}}`;
}
