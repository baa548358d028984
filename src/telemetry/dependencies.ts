/**
 * The outages of what the server depends on (Redis, the authorization
 * server's metadata, key set and introspection endpoint), as metrics: a
 * gauge that is 1 while the dependency answers and 0 while it does not, and
 * a count of outages. The parts that already log an outage's start and end
 * once (transport/redis-health.ts, transport/http/auth/outage-log.ts) call
 * the function made here at the same two points.
 */
import type { MetricsRegistry } from './registry.js';

/** Told when `dependency` stops answering (`up` false) and when it answers again. */
export type DependencyStatus = (dependency: string, up: boolean) => void;

export function dependencyStatus(registry: MetricsRegistry): DependencyStatus {
  const upGauge = registry.gauge(
    'skillport_dependency_up',
    'Whether a dependency answers (1) or is out of reach (0): redis, auth_metadata, auth_keys, auth_introspection.',
    ['dependency'],
  );
  const outages = registry.counter('skillport_dependency_outages_total', 'Outages of a dependency since start.', ['dependency']);
  return (dependency, up) => {
    upGauge.set(up ? 1 : 0, { dependency });
    if (!up) outages.add({ dependency });
  };
}
