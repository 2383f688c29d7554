import { composeEnv, containerOf, envNamesOf, find, loadBase, loadCompose, readsOf } from './manifests';

const { docs } = loadBase();

describe('project-transfer worker (deploy/k8s/base/project-transfer.yaml)', () => {
  const api = containerOf(find(docs, 'Deployment', 'project-transfer')!);
  const workerDeployment = find(docs, 'Deployment', 'project-transfer-worker')!;

  it('runs the API pods with ROLE=api and a worker Deployment of the same image with ROLE=worker', () => {
    expect(workerDeployment).toBeDefined();
    const worker = containerOf(workerDeployment);
    expect(api.env).toEqual(expect.arrayContaining([{ name: 'ROLE', value: 'api' }]));
    expect(worker.env).toEqual(expect.arrayContaining([{ name: 'ROLE', value: 'worker' }]));
    expect(worker.image).toBe(api.image);
    expect(worker.envFrom).toEqual(api.envFrom);
  });

  it('gives the worker only env vars the service reads, probes on its port, limits, non-root', () => {
    const worker = containerOf(workerDeployment);
    const reads = readsOf('project-transfer');
    expect(envNamesOf(worker, docs).filter((n) => !reads.has(n))).toEqual([]);
    expect(worker.readinessProbe.httpGet).toEqual({ path: '/-/readiness', port: 'http' });
    expect(worker.livenessProbe.httpGet).toEqual({ path: '/-/liveness', port: 'http' });
    expect(Object.keys(worker.resources.limits).sort()).toEqual(['cpu', 'memory']);
    expect(workerDeployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });

  it('routes no Service to the worker', () => {
    const services = docs.filter((d) => d.kind === 'Service');
    expect(services.some((s) => s.spec.selector['app.kubernetes.io/name'] === 'project-transfer-worker')).toBe(false);
  });
});

describe('project-transfer worker (docker-compose.yml)', () => {
  const { services } = loadCompose();

  it('runs a worker service consuming the queues while the API service answers HTTP', () => {
    expect(composeEnv(services['project-transfer']).ROLE).toBe('api');
    const worker = services['project-transfer-worker'];
    expect(composeEnv(worker).ROLE).toBe('worker');
    expect(worker.image).toBe(services['project-transfer'].image);
    expect(Object.keys(worker.depends_on).sort()).toEqual(['create-bucket', 'postgres', 'project-transfer', 'provision', 'rabbitmq']);
  });
});
