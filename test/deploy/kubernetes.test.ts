/**
 * deploy/kubernetes/ against the Kubernetes API schemas, offline: every
 * manifest is validated by the model class of its apiVersion and kind from
 * `kubernetes-models` (an unknown one fails), and the manifests refer to each
 * other correctly (kustomization, selectors, the autoscaler's target, the
 * Secret and ConfigMap the Deployment reads).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KUBERNETES, kubernetesManifests, type Manifest, manifestOf } from './_deploy.js';

/** The kustomization file is kustomize's, not an API object: checked by what it lists. */
const KUSTOMIZATION = 'kustomize.config.k8s.io/v1beta1';

/** kubernetes-models' entry per API group and version the manifests use; another one fails the test until added here. */
const GROUPS: Record<string, () => Promise<object>> = {
  v1: () => import('kubernetes-models/v1'),
  'apps/v1': () => import('kubernetes-models/apps/v1'),
  'policy/v1': () => import('kubernetes-models/policy/v1'),
  'autoscaling/v2': () => import('kubernetes-models/autoscaling/v2'),
};

async function modelOf(manifest: Manifest): Promise<{ validate(): void }> {
  const load = GROUPS[manifest.apiVersion];
  if (!load) throw new Error(`no kubernetes-models entry for ${manifest.apiVersion}`);
  const Model = ((await load()) as Record<string, new (data: unknown) => { validate(): void }>)[manifest.kind];
  if (!Model) throw new Error(`kubernetes-models has no ${manifest.kind} in ${manifest.apiVersion}`);
  return new Model(manifest);
}

type Labels = Record<string, string>;
const at = (value: unknown, ...path: string[]): unknown => path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);

describe('deploy/kubernetes/', () => {
  const manifests = kubernetesManifests().filter(({ manifest }) => manifest.apiVersion !== KUSTOMIZATION);

  it('holds the objects a team deployment needs', () => {
    expect(manifests.map(({ manifest }) => manifest.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
      'Secret',
      'Service',
    ]);
  });

  it.each(manifests.map(({ file, manifest }) => [`${file}: ${manifest.kind}`, manifest] as const))(
    '%s is valid against its schema',
    async (_name, manifest) => {
      const model = await modelOf(manifest);
      expect(() => model.validate()).not.toThrow();
    },
  );

  it('lists every manifest in kustomization.yaml but the Secret example', () => {
    const kustomization = manifestOf('Kustomization');
    const files = readdirSync(KUBERNETES).filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml' && name !== 'secret.example.yaml');
    expect([...(kustomization.resources as string[])].sort()).toEqual(files.sort());
  });

  it('selects the Deployment’s pods from the Service, the budget and the autoscaler', () => {
    const deployment = manifestOf('Deployment');
    const podLabels = at(deployment, 'spec', 'template', 'metadata', 'labels') as Labels;
    const matches = (selector: Labels) => Object.entries(selector).every(([key, value]) => podLabels[key] === value);
    expect(matches(at(deployment, 'spec', 'selector', 'matchLabels') as Labels)).toBe(true);
    expect(matches(at(manifestOf('Service'), 'spec', 'selector') as Labels)).toBe(true);
    expect(matches(at(manifestOf('PodDisruptionBudget'), 'spec', 'selector', 'matchLabels') as Labels)).toBe(true);
    expect(at(manifestOf('HorizontalPodAutoscaler'), 'spec', 'scaleTargetRef')).toEqual({
      apiVersion: deployment.apiVersion,
      kind: deployment.kind,
      name: deployment.metadata?.name,
    });
    expect(at(deployment, 'spec', 'replicas')).toBe(at(manifestOf('HorizontalPodAutoscaler'), 'spec', 'minReplicas'));
    // CPU utilisation is a share of the request: without one the autoscaler cannot scale.
    const containers = at(deployment, 'spec', 'template', 'spec', 'containers') as unknown[];
    for (const container of containers) expect(at(container, 'resources', 'requests', 'cpu')).toBeDefined();
  });

  it('reads only the ConfigMap and Secret keys that exist', () => {
    const container = (at(manifestOf('Deployment'), 'spec', 'template', 'spec', 'containers') as unknown[])[0];
    const configMap = manifestOf('ConfigMap');
    const secret = manifestOf('Secret');
    for (const source of at(container, 'envFrom') as unknown[]) expect(at(source, 'configMapRef', 'name')).toBe(configMap.metadata?.name);
    for (const variable of at(container, 'env') as unknown[]) {
      const ref = at(variable, 'valueFrom', 'secretKeyRef') as { name: string; key: string } | undefined;
      if (!ref) continue;
      expect(ref.name).toBe(secret.metadata?.name);
      expect(Object.keys(secret.stringData as Labels)).toContain(ref.key);
    }
  });
});
