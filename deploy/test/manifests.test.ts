import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { loadConfig } from '@anvil/config';
import { PROCESS_ENV } from '@anvil/runtime';
import { entryPoints } from '../../scripts/build';
import { generateEnv } from '../scripts/gen-env';
import { loginsOf, loginVar } from '../scripts/provision';
import {
  BASE_DIR, OVERLAY_DIR, PORTS, PROCESSES, ROOT, SERVICES, SHARED_READS, applyPatch, composeEnv, containerOf,
  dockerStages, envNamesOf, find, keyRefsOf, keysOf, loadBase, loadCompose, readYaml, readsOf, schemaOf, urlVar, type Doc, type EnvVar,
} from './manifests';

const { kustomization, docs } = loadBase();
/** Every process with its own database login: the six services and the gateway (its rate limits). */
const LOGINS = [...SERVICES, 'gateway'];

function deployment(name: string): Doc {
  const d = find(docs, 'Deployment', name);
  if (!d) throw new Error(`no Deployment ${name}`);
  return d;
}

function envValue(container: { env?: EnvVar[] }, name: string): string | undefined {
  return container.env?.find((e) => e.name === name)?.value;
}

describe('Kubernetes base (deploy/k8s/base)', () => {
  it('lists every manifest file of the directory in kustomization.yaml', () => {
    const files = fs.readdirSync(BASE_DIR).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it.each(PROCESSES)('%s has a Deployment, a Service on its port and an HPA (autoscaling/v2, CPU 70%%)', (name) => {
    const dep = deployment(name);
    const labels = dep.spec.template.metadata.labels;
    expect(dep.spec.selector.matchLabels).toEqual(expect.objectContaining({ 'app.kubernetes.io/name': name }));
    expect(labels).toEqual(expect.objectContaining(dep.spec.selector.matchLabels));
    expect(containerOf(dep).image).toBe(`anvil/${name}`);

    const svc = find(docs, 'Service', name)!;
    expect(svc).toBeDefined();
    expect(labels).toEqual(expect.objectContaining(svc.spec.selector));
    expect(svc.spec.ports).toEqual([expect.objectContaining({ port: PORTS[name], targetPort: 'http' })]);

    const hpa = find(docs, 'HorizontalPodAutoscaler', name)!;
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(1);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    expect(hpa.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    ]);
  });

  it.each(PROCESSES)('%s listens on PORT and is probed on /-/readiness and /-/liveness there', (name) => {
    const c = containerOf(deployment(name));
    expect(c.ports).toEqual([{ name: 'http', containerPort: PORTS[name], protocol: 'TCP' }]);
    expect(envValue(c, 'PORT')).toBe(String(PORTS[name]));
    const onPort = (port: string | number) => port === 'http' || port === PORTS[name];
    expect(c.readinessProbe.httpGet.path).toBe('/-/readiness');
    expect(onPort(c.readinessProbe.httpGet.port)).toBe(true);
    expect(c.livenessProbe.httpGet.path).toBe('/-/liveness');
    expect(onPort(c.livenessProbe.httpGet.port)).toBe(true);
    if (c.startupProbe) expect(onPort(c.startupProbe.httpGet.port)).toBe(true);
  });

  it.each(PROCESSES)('%s has CPU and memory requests and limits and runs as non-root', (name) => {
    const dep = deployment(name);
    const { requests, limits } = containerOf(dep).resources;
    expect(Object.keys(requests).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(limits).sort()).toEqual(['cpu', 'memory']);
    expect(dep.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });

  it.each(PROCESSES)('%s gets only env vars its config reads', (name) => {
    const names = envNamesOf(containerOf(deployment(name)), docs);
    const reads = readsOf(name);
    expect(names.filter((n) => !reads.has(n))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(SERVICES)('%s loads anvil-config and anvil-secrets and gets everything boot requires', (name) => {
    const c = containerOf(deployment(name));
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'anvil-config' } }, { secretRef: { name: 'anvil-secrets' } }]);
    const names = envNamesOf(c, docs);
    for (const required of ['DATABASE_URL', 'AMQP_URL', 'GATEWAY_PUBLIC_KEY', 'INTERNAL_API_TOKEN', 'HOST', 'PORT', 'IDENTITY_URL', 'STORAGE_DRIVER', 'PUBLIC_URL']) {
      expect(names).toContain(required);
    }
  });

  it('the gateway gets its private key, the internal token and one URL per service, naming that Service', () => {
    const c = containerOf(deployment('gateway'));
    const names = envNamesOf(c, docs);
    for (const required of ['GATEWAY_PRIVATE_KEY', 'INTERNAL_API_TOKEN', 'HOST', 'PORT', 'PUBLIC_URL', 'AMQP_URL', 'CONAN_JWT_SECRET']) {
      expect(names).toContain(required);
    }
    for (const s of SERVICES) expect(envValue(c, urlVar(s))).toBe(`http://${s}:${PORTS[s]}`);
  });

  it('resolves every key reference, and every ConfigMap and Secret key reaches a container', () => {
    const used = new Set<string>();
    const containers = [...PROCESSES.map((name) => containerOf(deployment(name))), containerOf(find(docs, 'Job', 'anvil-provision')!)];
    for (const c of containers) {
      for (const [kind, ref, key] of keyRefsOf(c)) {
        expect([kind, ref, find(docs, kind, ref) && keysOf(find(docs, kind, ref)!).includes(key)]).toEqual([kind, ref, true]);
        used.add(`${kind}/${ref}/${key}`);
      }
      for (const from of c.envFrom ?? []) {
        const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
        const ref = (from.configMapRef ?? from.secretRef).name;
        for (const key of keysOf(find(docs, kind, ref)!)) used.add(`${kind}/${ref}/${key}`);
      }
    }
    const defined = docs
      .filter((d) => d.kind === 'ConfigMap' || d.kind === 'Secret')
      .flatMap((d) => keysOf(d).map((k) => `${d.kind}/${d.metadata.name}/${k}`));
    expect(defined.filter((k) => !used.has(k))).toEqual([]);
    expect(find(docs, 'ConfigMap', 'anvil-config')).toBeDefined();
    expect(find(docs, 'Secret', 'anvil-secrets')).toBeDefined();
  });

  it('each service reads DATABASE_URL from its own Secret, and only the provisioning Job gets the administrator URL', () => {
    for (const d of docs.filter((x) => x.kind === 'Deployment')) {
      const c = containerOf(d);
      const service = String(c.image).replace(/^anvil\//, '');
      const ref = (c.env as EnvVar[]).find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
      expect([d.metadata.name, ref]).toEqual([d.metadata.name, { name: `anvil-db-${service}`, key: 'DATABASE_URL' }]);
      expect(envNamesOf(c, docs)).not.toContain('DATABASE_ADMIN_URL');
    }
    expect(keysOf(find(docs, 'Secret', 'anvil-secrets')!)).not.toContain('DATABASE_URL');
    // the example logins are named after the schemas, and the example passwords are refused
    for (const s of LOGINS) {
      const url = find(docs, 'Secret', `anvil-db-${s}`)!.stringData.DATABASE_URL as string;
      expect(new URL(url).username).toBe(s.replace(/-/g, '_'));
      expect(() => loginsOf({ [loginVar(s)]: url })).toThrow(/placeholder|at least 16/);
    }
  });

  it('the Job anvil-provision runs deploy/scripts/provision.ts with the admin URL and every service login', () => {
    const job = find(docs, 'Job', 'anvil-provision')!;
    expect(kustomization.resources).toContain('provision.yaml');
    const c = containerOf(job);
    expect(c.command).toEqual(['node', 'dist/provision.js']);
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(job.spec.template.spec.restartPolicy).toBe('OnFailure');
    const refs = Object.fromEntries((c.env as EnvVar[]).map((e) => [e.name, e.valueFrom?.secretKeyRef]));
    expect(refs).toEqual({
      DATABASE_ADMIN_URL: { name: 'anvil-db-admin', key: 'DATABASE_ADMIN_URL' },
      ...Object.fromEntries(LOGINS.map((s) => [loginVar(s), { name: `anvil-db-${s}`, key: 'DATABASE_URL' }])),
    });
  });

  it('holds no Secret: the example overlay adds its example Secrets', () => {
    expect(kustomization.resources).not.toContain('secret.example.yaml');
    expect(readYaml(path.join(OVERLAY_DIR, 'kustomization.yaml')).resources).toContain('secret.example.yaml');
  });

  it.each(PROCESSES)('%s refuses to start on the example Secrets', (name) => {
    const env = Object.assign({}, ...docs.filter((d) => d.kind === 'Secret').map((d) => d.stringData as Record<string, string>));
    expect(() => loadConfig(schemaOf(name), env)).toThrow(/placeholder/);
  });

  it('ships only placeholder secrets, each marked change-me (or empty)', () => {
    const secrets = docs.filter((d) => d.kind === 'Secret');
    expect(secrets.length).toBeGreaterThan(0);
    for (const s of secrets) {
      expect(s.data).toBeUndefined();
      for (const value of Object.values(s.stringData as Record<string, string>)) {
        expect(value === '' || value.includes('change-me')).toBe(true);
      }
    }
  });

  it('routes all Ingress traffic to the gateway Service without a body size limit', () => {
    const ingress = find(docs, 'Ingress', 'anvil')!;
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.spec.rules).toEqual([
      { http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'gateway', port: { name: 'http' } } } }] } },
    ]);
    expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('0');
  });

  describe('shutdown, disruption and network boundaries', () => {
    const deployments = docs.filter((d) => d.kind === 'Deployment');
    const nameOf = (d: Doc) => d.spec.template.metadata.labels['app.kubernetes.io/name'] as string;
    const policy = (name: string) => find(docs, 'NetworkPolicy', name)!;
    /** The pod names a policy's single ingress rule admits, and the namespaces. */
    const peers = (p: Doc) => {
      expect(p.spec.policyTypes).toEqual(['Ingress']);
      expect(p.spec.ingress).toHaveLength(1);
      const from = p.spec.ingress[0].from as { podSelector?: any; namespaceSelector?: any }[];
      expect(p.spec.ingress[0].ports).toEqual([{ port: 'http', protocol: 'TCP' }]);
      return {
        pods: from.filter((f) => f.podSelector).map((f) => f.podSelector.matchLabels['app.kubernetes.io/name']).sort(),
        namespaces: from.filter((f) => f.namespaceSelector).map((f) => f.namespaceSelector.matchLabels['kubernetes.io/metadata.name']).sort(),
      };
    };

    it('the gateway has a preStop pause and a termination grace covering it and SHUTDOWN_GRACE_MS', () => {
      const dep = deployment('gateway');
      const c = containerOf(dep);
      const pause = c.lifecycle.preStop.sleep.seconds as number;
      expect(pause).toBeGreaterThanOrEqual(3);
      const grace = Number(envValue(c, 'SHUTDOWN_GRACE_MS'));
      expect(loadConfig(schemaOf('gateway'), { SHUTDOWN_GRACE_MS: String(grace) }).SHUTDOWN_GRACE_MS).toBe(grace);
      expect(grace).toBeGreaterThan(0);
      expect(dep.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(pause + grace / 1000);
    });

    it('every Deployment has a PodDisruptionBudget taking at most one of its pods', () => {
      for (const d of deployments) {
        const pdb = find(docs, 'PodDisruptionBudget', d.metadata.name);
        expect(pdb).toBeDefined();
        expect(pdb!.apiVersion).toBe('policy/v1');
        expect(pdb!.spec.maxUnavailable).toBe(1);
        expect(d.spec.template.metadata.labels).toEqual(expect.objectContaining(pdb!.spec.selector.matchLabels));
      }
      expect(docs.filter((d) => d.kind === 'PodDisruptionBudget')).toHaveLength(deployments.length);
    });

    it('nothing reaches an Anvil pod unless a policy allows it', () => {
      const deny = policy('anvil-default-deny');
      expect(deny.spec).toEqual({ podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'anvil' } }, policyTypes: ['Ingress'] });
      for (const d of deployments) expect(d.spec.template.metadata.labels['app.kubernetes.io/part-of']).toBe('anvil');
    });

    it('only the ingress controller (and Prometheus) reach the gateway', () => {
      const p = policy('gateway');
      expect(p.spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'gateway' });
      expect(peers(p)).toEqual({ pods: [], namespaces: ['ingress-nginx', 'monitoring'] });
    });

    it('a service is reached by the gateway and the processes configured with its URL (its internal API)', () => {
      for (const d of deployments.filter((x) => nameOf(x) !== 'gateway')) {
        const name = nameOf(d);
        const p = policy(name);
        expect(p.spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': name });
        // a process without a Service (the transfer worker) serves no one but Prometheus
        const served = find(docs, 'Service', name) !== undefined;
        const callers = deployments
          .filter((x) => x !== d && nameOf(x) !== 'gateway' && served)
          .filter((x) => readsOf(containerOf(x).env?.find((e: EnvVar) => e.name === 'SERVICE')?.value ?? nameOf(x).replace(/-worker$/, '')).has(urlVar(name)))
          .map(nameOf);
        expect(peers(p)).toEqual({ pods: served ? ['gateway', ...callers].sort() : [], namespaces: ['monitoring'] });
      }
      expect(policy('identity').spec.ingress[0].from.length).toBeGreaterThan(2);
    });

    it('/metrics is refused at the ingress', () => {
      const ingresses = docs.filter((d) => d.kind === 'Ingress');
      const guard = ingresses.find((i) => i.spec.rules.some((r: any) => r.http.paths.some((x: any) => x.path === '/metrics' && x.pathType === 'Exact')));
      expect(guard).toBeDefined();
      expect(guard!.metadata.annotations['nginx.ingress.kubernetes.io/denylist-source-range']).toBe('0.0.0.0/0,::/0');
    });
  });
});

describe('Kubernetes example overlay (deploy/k8s/overlays/example)', () => {
  const overlay = readYaml(path.join(OVERLAY_DIR, 'kustomization.yaml'));

  it('builds on the base and pins an image tag for every process', () => {
    expect(overlay.resources).toContain('../../base');
    for (const r of overlay.resources) expect(fs.existsSync(path.join(OVERLAY_DIR, r))).toBe(true);
    const images = overlay.images.map((i: { name: string }) => i.name).sort();
    expect(images).toEqual(PROCESSES.map((p) => containerOf(deployment(p)).image).sort());
    for (const i of overlay.images) expect(i.newTag).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('sets replicas of Deployments that exist', () => {
    expect(overlay.replicas.length).toBeGreaterThan(0);
    for (const r of overlay.replicas) expect(find(docs, 'Deployment', r.name)).toBeDefined();
  });

  it('patches apply to the base and give the Ingress the host anvil.example.com', () => {
    const patched = new Map<string, Doc>();
    for (const p of overlay.patches) {
      const target = find(docs, p.target.kind, p.target.name);
      expect(target).toBeDefined();
      patched.set(`${p.target.kind}/${p.target.name}`, applyPatch(target!, yaml.load(p.patch) as never));
    }
    const ingress = patched.get('Ingress/anvil')!;
    expect(ingress.spec.rules[0].host).toBe('anvil.example.com');
    expect(ingress.spec.tls).toEqual([{ hosts: ['anvil.example.com'], secretName: 'anvil-tls' }]);
    expect(patched.get('ConfigMap/anvil-config')!.data.PUBLIC_URL).toBe('https://anvil.example.com');
  });
});

describe('docker-compose.yml', () => {
  const { text, services } = loadCompose();

  it('runs postgres:15, rabbitmq:3-management, minio and a bucket creator', () => {
    expect(services.postgres.image).toBe('postgres:15');
    expect(services.rabbitmq.image).toBe('rabbitmq:3-management');
    expect(services.minio.image).toMatch(/^minio\/minio:/);
    expect(services['create-bucket'].depends_on.minio.condition).toBe('service_healthy');
  });

  it.each(PROCESSES)('%s: built from its SERVICE arg, env read by its config, health-checked on /-/readiness at PORT', (name) => {
    const svc = services[name];
    expect(svc.build.args).toEqual({ SERVICE: name });
    const env = composeEnv(svc);
    const reads = readsOf(name);
    expect(Object.keys(env).filter((n) => !reads.has(n))).toEqual([]);
    expect(env.PORT).toBe(String(PORTS[name]));
    expect(env.HOST).toBe('0.0.0.0');
    expect(svc.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${PORTS[name]}/-/readiness`);
  });

  it.each(SERVICES)('%s uses Postgres, RabbitMQ and MinIO, and starts after them', (name) => {
    const env = composeEnv(services[name]);
    const login = name.replace(/-/g, '_');
    expect(env.DATABASE_URL).toBe(`postgres://${login}:\${${login.toUpperCase()}_DB_PASSWORD:?run deploy/scripts/gen-env.ts}@postgres:5432/anvil`);
    expect(env.AMQP_URL).toMatch(/^amqp:\/\/anvil:.*@rabbitmq:5672$/);
    expect(env).toEqual(expect.objectContaining({ STORAGE_DRIVER: 's3', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' }));
    expect(env.IDENTITY_URL).toBe('http://identity:7101');
    for (const k of ['GATEWAY_PUBLIC_KEY', 'INTERNAL_API_TOKEN']) expect(env[k]).toBeTruthy();
    expect(services[name].depends_on['create-bucket'].condition).toBe('service_completed_successfully');
    expect(services[name].depends_on.provision.condition).toBe('service_completed_successfully');
  });

  it('provision creates every service login from the administrator URL, which no service gets', () => {
    const prov = services.provision;
    expect(prov.command.join(' ')).toBe('node dist/provision.js');
    expect(entryPoints().provision).toBe('deploy/scripts/provision.ts');
    expect(prov.depends_on.postgres.condition).toBe('service_healthy');
    const env = composeEnv(prov);
    expect(env.DATABASE_ADMIN_URL).toMatch(/^postgres:\/\/anvil:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/anvil$/);
    // each service's login is the URL that service connects with
    for (const s of LOGINS) expect(env[loginVar(s)]).toBe(composeEnv(services[s]).DATABASE_URL);
    expect(Object.keys(env).sort()).toEqual(['DATABASE_ADMIN_URL', ...LOGINS.map(loginVar)].sort());
    expect(composeEnv(services.gateway).DATABASE_URL).toBe('postgres://gateway:${GATEWAY_DB_PASSWORD:?run deploy/scripts/gen-env.ts}@postgres:5432/anvil');
    expect(services.gateway.depends_on.provision.condition).toBe('service_completed_successfully');
    for (const [name, svc] of Object.entries(services)) if (name !== 'provision' && name !== 'postgres') expect([name, composeEnv(svc).DATABASE_ADMIN_URL]).toEqual([name, undefined]);
    // the shared administrator's login is nobody's DATABASE_URL
    for (const s of [...LOGINS, 'project-transfer-worker']) expect(composeEnv(services[s]).DATABASE_URL).not.toContain('POSTGRES_PASSWORD');
  });

  it('the gateway publishes 8080 and reaches every service by its compose name', () => {
    const gw = services.gateway;
    expect(gw.ports).toEqual(['8080:8080']);
    const env = composeEnv(gw);
    for (const s of SERVICES) {
      expect(env[urlVar(s)]).toBe(`http://${s}:${PORTS[s]}`);
      expect(gw.depends_on[s].condition).toBe('service_healthy');
    }
    expect(env.GATEWAY_PRIVATE_KEY).toBeTruthy();
  });

  it('the bucket creator reads only storage settings', () => {
    const env = Object.keys(composeEnv(services['create-bucket']));
    expect(env.filter((n) => !SHARED_READS.has(n) || !/^(STORAGE_|S3_)/.test(n))).toEqual([]);
    expect(services['create-bucket'].command.join(' ')).toBe('node dist/ensure-bucket.js');
    expect(entryPoints()['ensure-bucket']).toBe('deploy/scripts/ensure-bucket.ts');
    expect(fs.existsSync(path.join(ROOT, 'deploy/scripts/ensure-bucket.ts'))).toBe(true);
  });

  it('every variable it requires from .env is one gen-env.ts writes', () => {
    const generated = new Set([...generateEnv().matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
    const required = [...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)(:?[-?][^}]*)?\}/g)]
      .filter((m) => !m[2]?.replace(/^:/, '').startsWith('-'))
      .map((m) => m[1]);
    expect(required.length).toBeGreaterThan(0);
    expect([...new Set(required)].filter((n) => !generated.has(n))).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const { args, stages } = dockerStages(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
  const stage = (name: string) => stages.find((s) => s.name === name)!;
  const runtime = stages[stages.length - 1];
  const node = (role: keyof typeof PROCESS_ENV) => ['node', ...PROCESS_ENV[role].nodeArgs].join(' ');

  it('builds every stage on the LTS line NODE_VERSION names (24)', () => {
    expect(args.NODE_VERSION).toBe('24');
    // Node's even-numbered lines are its LTS lines
    expect(Number(args.NODE_VERSION) % 2).toBe(0);
    expect(stages.map((s) => s.from)).toEqual(stages.map(() => 'node:${NODE_VERSION}-slim'));
  });

  it('compiles in a build stage that has every dependency (npm run build: scripts/build.ts)', () => {
    expect(stages.map((s) => s.name)).toEqual(['manifests', 'build', 'runtime']);
    expect(stage('build').instructions).toContain('RUN npx --yes pnpm@10.34.9 install --frozen-lockfile --prod=false');
    expect(stage('build').instructions.at(-1)).toBe('RUN npm run build');
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.build).toContain('scripts/build.ts');
  });

  it('ships production dependencies from the lockfile and dist/, and no sources, tests or benches', () => {
    expect(stage('manifests').instructions).toContain('RUN find . -type f ! -name package.json ! -name pnpm-lock.yaml ! -name pnpm-workspace.yaml -delete && find . -type d -empty -delete');
    const copies = runtime.instructions.filter((i) => /^(COPY|ADD)\s/.test(i));
    expect(copies).toEqual(['COPY --from=manifests /app ./', 'COPY --from=build /app/dist ./dist']);
    const install = runtime.instructions.filter((i) => i.includes(' install '));
    expect(install).toEqual([expect.stringContaining('pnpm@10.34.9 install --frozen-lockfile --prod --config.node-linker=hoisted ')]);
    // what goes into dist/: entry points of processes and the worker they start, none of a test or bench
    for (const entry of Object.values(entryPoints())) expect(entry).toMatch(/^(gateway|services\/[^/]+|libs\/[^/]+|deploy)\/(src|scripts)\//);
  });

  it('runs as a non-root user, one image per SERVICE', () => {
    expect(runtime.instructions).toContain('USER node');
    expect(runtime.instructions.some((i) => /^ARG SERVICE/.test(i))).toBe(true);
  });

  it('runs every process compiled, with plain node and the settings the fleet runs with (libs/runtime PROCESS_ENV)', () => {
    const { gateway, service } = PROCESS_ENV;
    const cmd = runtime.instructions.find((l) => l.startsWith('CMD '))!;
    expect(cmd).not.toMatch(/tsx|\.ts\b/);
    expect(cmd).toContain(`MALLOC_ARENA_MAX=${gateway.MALLOC_ARENA_MAX} NODE_OPTIONS=\\"$NODE_OPTIONS ${gateway.NODE_OPTIONS}\\" exec ${node('gateway')} dist/gateway.js`);
    expect(cmd).toContain(`MALLOC_ARENA_MAX=${service.MALLOC_ARENA_MAX} NODE_OPTIONS=\\"$NODE_OPTIONS ${service.NODE_OPTIONS}\\" exec ${node('service')} \\"dist/$SERVICE.js\\"`);
  });

  it.each(PROCESSES)('builds dist/%s.js from its entry point', (name) => {
    const entry = name === 'gateway' ? 'gateway/src/main.ts' : `services/${name}/src/main.ts`;
    expect(entryPoints()[name]).toBe(entry);
    expect(fs.existsSync(path.join(ROOT, entry))).toBe(true);
  });
});

describe('deploy/scripts/gen-env.ts', () => {
  function parse(env: string): Record<string, string> {
    return Object.fromEntries([...env.matchAll(/^([A-Z_]+)='([^']*)'$/gm)].map((m) => [m[1], m[2].replace(/\\n/g, '\n')]));
  }

  it('writes a matching Ed25519 key pair and different secrets on every run', () => {
    const a = parse(generateEnv());
    const b = parse(generateEnv());
    const signature = crypto.sign(null, Buffer.from('ctx'), crypto.createPrivateKey(a.GATEWAY_PRIVATE_KEY));
    expect(crypto.verify(null, Buffer.from('ctx'), crypto.createPublicKey(a.GATEWAY_PUBLIC_KEY), signature)).toBe(true);
    for (const k of Object.keys(a)) expect([k, a[k]]).not.toEqual([k, b[k]]);
    for (const k of ['POSTGRES_PASSWORD', 'RABBITMQ_PASSWORD', 'MINIO_ROOT_PASSWORD']) expect(a[k]).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });
});
