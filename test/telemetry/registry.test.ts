/**
 * The registry writes the Prometheus text format (0.0.4): HELP and TYPE per
 * family, escaped label values, cumulative histogram buckets with +Inf, sum
 * and count; and it bounds a family's series, counting the rest as _OTHER.
 */
import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../src/telemetry.js';

describe('MetricsRegistry', () => {
  it('writes counters and gauges with escaped labels, leaving out empty ones', () => {
    const registry = new MetricsRegistry();
    const counter = registry.counter('demo_total', 'A demo.\nSecond line', ['a', 'b']);
    counter.add({ a: 'x"y\\z\nw', b: '' });
    counter.add({ a: 'x"y\\z\nw' }, 2);
    const gauge = registry.gauge('demo_open', 'Open things.');
    gauge.add(3);
    gauge.add(-1);
    expect(registry.collect()).toBe(
      [
        '# HELP demo_total A demo.\\nSecond line',
        '# TYPE demo_total counter',
        'demo_total{a="x\\"y\\\\z\\nw"} 3',
        '# HELP demo_open Open things.',
        '# TYPE demo_open gauge',
        'demo_open 2',
        '',
      ].join('\n'),
    );
  });

  it('writes histograms with cumulative buckets, +Inf, sum and count', () => {
    const registry = new MetricsRegistry();
    const histogram = registry.histogram('demo_seconds', 'Durations.', ['m'], [0.1, 1]);
    for (const value of [0.05, 0.1, 0.5, 7]) histogram.observe(value, { m: 'get' });
    expect(registry.collect().split('\n').slice(2, -1)).toEqual([
      'demo_seconds_bucket{m="get",le="0.1"} 2',
      'demo_seconds_bucket{m="get",le="1"} 3',
      'demo_seconds_bucket{m="get",le="+Inf"} 4',
      'demo_seconds_sum{m="get"} 7.65',
      'demo_seconds_count{m="get"} 4',
    ]);
  });

  it('reads a gauge of values when collected', () => {
    const registry = new MetricsRegistry();
    let open = 1;
    registry.gaugeOf('demo_sessions', 'Sessions.', ['kind'], () => [[{ kind: 'http' }, open]]);
    open = 5;
    expect(registry.collect()).toContain('demo_sessions{kind="http"} 5\n');
  });

  it('records each set of labels to its own series, however they alternate', () => {
    // The registry remembers the series it last recorded to: a set of labels that differs from it
    // in any one value, or leaves one out, must still find its own.
    const registry = new MetricsRegistry();
    const histogram = registry.histogram('demo_seconds', 'Durations.', ['m', 'p'], [1]);
    const calls: Array<[number, Record<string, string>]> = [
      [0.5, { m: 'get', p: 'a' }],
      [0.5, { m: 'get', p: 'b' }],
      [0.5, { m: 'get', p: 'a' }],
      [2, { m: 'list', p: 'a' }],
      [0.5, { m: 'get' }],
      [0.5, { m: 'get', p: 'a' }],
    ];
    for (const [value, labels] of calls) histogram.observe(value, labels);
    expect(
      registry
        .collect()
        .split('\n')
        .filter((line) => line.startsWith('demo_seconds_count')),
    ).toEqual([
      'demo_seconds_count{m="get",p="a"} 3',
      'demo_seconds_count{m="get",p="b"} 1',
      'demo_seconds_count{m="list",p="a"} 1',
      'demo_seconds_count{m="get"} 1',
    ]);
  });

  it('counts what would pass the series cap under one _OTHER series', () => {
    const registry = new MetricsRegistry({ maxSeries: 2 });
    const counter = registry.counter('demo_total', 'A demo.', ['name']);
    for (const name of ['a', 'b', 'c', 'd', 'a']) counter.add({ name });
    const lines = registry
      .collect()
      .split('\n')
      .filter((line) => line.startsWith('demo_total'));
    expect(lines).toEqual(['demo_total{name="a"} 2', 'demo_total{name="b"} 1', 'demo_total{name="_OTHER"} 2']);
  });

  it('gives the same family when asked again, and refuses a clash or a bad name', () => {
    const registry = new MetricsRegistry();
    const one = registry.counter('demo_total', 'A demo.', ['x']);
    const two = registry.counter('demo_total', 'A demo.', ['x']);
    one.add({ x: '1' });
    two.add({ x: '1' });
    expect(registry.collect()).toContain('demo_total{x="1"} 2');
    expect(() => registry.gauge('demo_total', 'Other.', ['x'])).toThrow(TypeError);
    expect(() => registry.counter('demo-total', 'Bad.')).toThrow(TypeError);
    expect(() => registry.counter('demo2_total', 'Bad.', ['le'])).toThrow(TypeError);
    expect(() => registry.histogram('demo_s', 'Bad.', [], [1, 1])).toThrow(TypeError);
  });
});
