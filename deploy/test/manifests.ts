/** Loading and reading the deploy manifests for manifests.test.ts. */
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { serviceSchema, variableNames, type Schema } from '@anvil/config';
import { configSchema as gatewaySchema } from '../../gateway/src/config';
import { configSchema as identitySchema } from '../../services/identity/src/config';
import { configSchema as registrySchema } from '../../services/registry/src/config';
import { configSchema as projectTransferSchema } from '../../services/project-transfer/src/config';
import { configSchema as workItemsSchema } from '../../services/work-items/src/config';
import { configSchema as pipelinesSchema } from '../../services/pipelines/src/config';
import { configSchema as alertingSchema } from '../../services/alerting/src/config';

export type Doc = { apiVersion: string; kind: string; metadata: { name: string; [k: string]: any }; [k: string]: any };
export type EnvVar = { name: string; value?: string; valueFrom?: any };

export const ROOT = path.resolve(__dirname, '..', '..');
export const BASE_DIR = path.join(ROOT, 'deploy', 'k8s', 'base');
export const OVERLAY_DIR = path.join(ROOT, 'deploy', 'k8s', 'overlays', 'example');

/** Every process of the fleet and the port it listens on. */
export const PORTS: Record<string, number> = {
  gateway: 8080,
  identity: 7101,
  registry: 7102,
  'project-transfer': 7103,
  'work-items': 7104,
  pipelines: 7105,
  alerting: 7106,
};
export const PROCESSES = Object.keys(PORTS);
export const SERVICES = PROCESSES.filter((p) => p !== 'gateway');

/** The gateway's `<SERVICE>_URL` variable for a service, e.g. `WORK_ITEMS_URL`. */
export function urlVar(service: string): string {
  return `${service.toUpperCase().replace(/-/g, '_')}_URL`;
}

const OWN_SCHEMAS: Record<string, Schema> = {
  identity: identitySchema,
  registry: registrySchema,
  'project-transfer': projectTransferSchema,
  'work-items': workItemsSchema,
  pipelines: pipelinesSchema,
  alerting: alertingSchema,
};

/** The env var names a process's config reads: the gateway's schema, or serviceSchema + the service's own. */
export function readsOf(processName: string): Set<string> {
  return new Set(variableNames(schemaOf(processName)));
}

/** The config schema a process validates its environment with. */
export function schemaOf(processName: string): Schema {
  if (processName === 'gateway') return gatewaySchema;
  const own = OWN_SCHEMAS[processName];
  if (!own) throw new Error(`unknown process ${processName}`);
  return { ...serviceSchema, ...own };
}

/** The env var names any service reads (for the storage-only bucket job). */
export const SHARED_READS = new Set(variableNames(serviceSchema));

export function readYaml(file: string): any {
  return yaml.load(fs.readFileSync(file, 'utf8'));
}

/** The example Secrets the example overlay adds to the base (the base holds none). */
export const EXAMPLE_SECRETS = path.join(OVERLAY_DIR, 'secret.example.yaml');

/** Every document of every file the base kustomization lists, then the example overlay's Secrets. */
export function loadBase(): { kustomization: any; docs: Doc[] } {
  const kustomization = readYaml(path.join(BASE_DIR, 'kustomization.yaml'));
  const docs: Doc[] = [];
  for (const file of [...(kustomization.resources as string[]).map((f) => path.join(BASE_DIR, f)), EXAMPLE_SECRETS]) {
    for (const d of yaml.loadAll(fs.readFileSync(file, 'utf8'))) if (d) docs.push(d as Doc);
  }
  return { kustomization, docs };
}

export function find(docs: Doc[], kind: string, name: string): Doc | undefined {
  return docs.find((d) => d.kind === kind && d.metadata.name === name);
}

/** The keys a ConfigMap or Secret defines. */
export function keysOf(doc: Doc): string[] {
  return [...Object.keys(doc.data ?? {}), ...Object.keys(doc.stringData ?? {})];
}

/** The (only) container of a Deployment. */
export function containerOf(deployment: Doc): any {
  const containers = deployment.spec.template.spec.containers;
  if (containers.length !== 1) throw new Error(`${deployment.metadata.name}: expected one container`);
  return containers[0];
}

/** Every env var a container gets: its `env` entries plus every key of the ConfigMaps/Secrets it loads whole. */
export function envNamesOf(container: any, docs: Doc[]): string[] {
  const names = ((container.env ?? []) as EnvVar[]).map((e) => e.name);
  for (const from of container.envFrom ?? []) {
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
    const ref = from.configMapRef ?? from.secretRef;
    const source = find(docs, kind, ref.name);
    if (!source) throw new Error(`envFrom ${kind} ${ref.name} does not exist`);
    names.push(...keysOf(source).map((k) => `${from.prefix ?? ''}${k}`));
  }
  return names;
}

/** Every `configMapKeyRef` / `secretKeyRef` of a container, as [kind, name, key]. */
export function keyRefsOf(container: any): [string, string, string][] {
  return ((container.env ?? []) as EnvVar[]).flatMap((e): [string, string, string][] => {
    const cm = e.valueFrom?.configMapKeyRef;
    const sec = e.valueFrom?.secretKeyRef;
    if (cm) return [['ConfigMap', cm.name, cm.key]];
    if (sec) return [['Secret', sec.name, sec.key]];
    return [];
  });
}

/** Applies RFC 6902 `add`/`replace` operations (what the overlay uses), failing on a path that does not exist. */
export function applyPatch<T>(doc: T, ops: { op: string; path: string; value: unknown }[]): T {
  const out = structuredClone(doc) as any;
  for (const op of ops) {
    const parts = op.path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop()!;
    let parent = out;
    for (const p of parts) {
      parent = parent?.[p];
      if (parent === undefined) throw new Error(`${op.path}: no such path`);
    }
    if (op.op === 'replace' && !(last in parent)) throw new Error(`${op.path}: nothing to replace`);
    if (op.op !== 'add' && op.op !== 'replace') throw new Error(`unsupported op ${op.op}`);
    parent[last] = op.value;
  }
  return out;
}

/** docker-compose.yml, YAML merge keys resolved. */
export function loadCompose(): { text: string; services: Record<string, any> } {
  const text = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  return { text, services: (yaml.load(text) as any).services };
}

/** A compose `environment` (map or `KEY=value` list) as a map. */
export function composeEnv(service: any): Record<string, string> {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v ?? '')]));
  return Object.fromEntries((env as string[]).map((l) => [l.split('=')[0], l.slice(l.indexOf('=') + 1)]));
}

/** One stage of a Dockerfile: its `FROM` image, its name, and its instructions (continuations joined, spaces collapsed). */
export interface DockerStage {
  from: string;
  name: string | undefined;
  instructions: string[];
}

/** The Dockerfile's global `ARG`s (before the first `FROM`) and its stages, in order. */
export function dockerStages(text: string): { args: Record<string, string>; stages: DockerStage[] } {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: DockerStage[] = [];
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) stages.push({ from: from[1], name: from[2], instructions: [] });
    else if (stages.length) stages[stages.length - 1].instructions.push(line);
    else if (/^ARG\s+/i.test(line)) {
      const [k, v = ''] = line.replace(/^ARG\s+/i, '').split('=');
      args[k] = v;
    }
  }
  return { args, stages };
}
