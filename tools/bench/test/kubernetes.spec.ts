import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { parseAllDocuments } from 'yaml';
import { nodeOptionsFor } from '@bench/config';
import { samplePackageDefinition } from '@bench/proto';
import { freePort, stopProcess } from '@bench/testing';
import { readRun } from '../src/model/runs';
import { describeNeeding } from './needs';

// deploy/k8s/ without a cluster (docs/kubernetes.md, "What was validated"): every overlay renders with
// kustomize and passes kubernetes-validate --strict for a named Kubernetes version, offline; a fixture
// with a misspelt field fails it, naming the field; and the rendered containers' commands and environment
// start here as plain processes (Service names mapped to 127.0.0.1, ports moved to free ones, the downward
// API's values filled in as the kubelet would) that answer their readiness and liveness probes, after which
// the bench Job's own command runs a tiny benchmark and its log goes through deploy/k8s/unpack.sh into a
// run folder that bench:compare reads.
const ROOT = path.resolve(__dirname, '../../..');
const K8S = path.join(ROOT, 'deploy/k8s');
/** The repository's version: the image tag the manifests pin (deploy/k8s/base/kustomization.yaml `images:`). */
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The Kubernetes version the manifests are validated against, and the pinned validator (.ci/run installs it). */
const KUBERNETES_VERSION = '1.32.0';
const VALIDATOR = 'kubernetes-validate';
const VALIDATOR_VERSION = '1.37.0';
/**
 * How to run the validator: as a module of the first python3 on PATH, or its console script. Under
 * `npm test` npm puts node's own directory (/usr/bin here) first on PATH, so `python3` can be the
 * system's while pip installed the validator for another (pyenv's): the console script still finds it.
 */
const VALIDATOR_COMMANDS: readonly string[][] = [['python3', '-m', 'kubernetes_validate'], ['kubernetes-validate']];
let VALIDATE: string[] = [...VALIDATOR_COMMANDS[0]];
const INSTALL_VALIDATOR = `pip install ${VALIDATOR}==${VALIDATOR_VERSION}`;

const onPath = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
/** kubectl's built-in kustomize, or a standalone kustomize. */
const RENDERER: string[] | null = onPath('kubectl') ? ['kubectl', 'kustomize'] : onPath('kustomize') ? ['kustomize', 'build'] : null;
/** Why the validator did not answer, when it did not. */
let validatorProblem = '';
const validatorVersion = (): string | null => {
  const problems: string[] = [];
  for (const command of VALIDATOR_COMMANDS) {
    const result = spawnSync(command[0], [...command.slice(1), '--version'], { encoding: 'utf8', timeout: 60_000 });
    if (result.status === 0) {
      VALIDATE = [...command];
      return result.stdout.trim();
    }
    problems.push(`${command.join(' ')} --version: ${result.error?.message ?? `exit ${result.status ?? result.signal}`}${result.stderr ? `: ${result.stderr.trim().slice(-200)}` : ''}`);
  }
  validatorProblem = problems.join('; ');
  return null;
};

/** Missing tools fail the tests under CI=true and skip them, with what to install, elsewhere (needs.ts). */
function describeWithTools(name: string, tools: { validator: boolean }, body: () => void): void {
  describeNeeding(name, [
    RENDERER ? null : 'kubectl or kustomize (kubectl has kustomize built in)',
    !tools.validator || validatorVersion() ? null : `${VALIDATOR} (${INSTALL_VALIDATOR}; ${validatorProblem})`,
  ], body);
}

interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function renderDir(dir: string): string {
  const result = spawnSync(RENDERER![0], [RENDERER![1], dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${RENDERER!.join(' ')} ${path.relative(ROOT, dir)} failed: ${result.stderr}`);
  return result.stdout;
}

/** deploy/k8s/run.sh --render ARGS: the manifests the one documented command would apply. */
function renderRun(args: string[]): string {
  const result = spawnSync('bash', [path.join(K8S, 'run.sh'), '--render', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`run.sh --render ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

function parse(text: string): Manifest[] {
  return parseAllDocuments(text).map((doc) => doc.toJS() as Manifest).filter(Boolean);
}

function validate(text: string): { status: number | null; output: string } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-validate-')), 'rendered.yaml');
  fs.writeFileSync(file, text);
  const result = spawnSync(VALIDATE[0], [...VALIDATE.slice(1), '--strict', '--quiet', '-k', KUBERNETES_VERSION, file], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const find = (manifests: Manifest[], kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered manifests`);
  return found;
};
const containerOf = (workload: Manifest) => workload.spec!.template.spec.containers[0];
const APPS = ['server-a', 'server-b', 'client'] as const;

/** Every way the manifests are meant to be rendered: the base, each overlay, and run.sh's own kustomization. */
const RENDERINGS: Array<[string, () => string]> = [
  ['base', () => renderDir(path.join(K8S, 'base'))],
  ['overlays/spread', () => renderDir(path.join(K8S, 'overlays/spread'))],
  ['overlays/packed', () => renderDir(path.join(K8S, 'overlays/packed'))],
  ['run.sh --overlay spread --pinned --variant tuned', () => renderRun(['--overlay', 'spread', '--pinned', '--variant', 'tuned', '--', '--profile', 'quick'])],
  ['run.sh --overlay packed --pinned --image …@sha256', () => renderRun(['--overlay', 'packed', '--pinned', '--image', `registry.example/bench@sha256:${'a'.repeat(64)}`, '--namespace', 'bench'])],
];

describeWithTools('deploy/k8s manifests', { validator: true }, () => {
  it(`are validated by ${VALIDATOR} ${VALIDATOR_VERSION}, the pinned version`, () => {
    expect(validatorVersion()).toContain(VALIDATOR_VERSION);
  });

  it.each(RENDERINGS)(`%s renders and passes strict validation against Kubernetes ${KUBERNETES_VERSION}`, (_name, render) => {
    const text = render();
    const kinds = parse(text).map((m) => `${m.kind}/${m.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`);
    // run.sh adds the Secret with the run's control token; the directory itself holds none.
    const secret = _name.startsWith('run.sh') ? ['Secret/bench-token'] : [];
    expect(kinds.sort()).toEqual([
      'ConfigMap/bench-settings',
      'Deployment/client',
      'Deployment/server-a',
      'Deployment/server-b',
      'Job/bench',
      'NetworkPolicy/bench-no-ingress',
      'NetworkPolicy/client-from-bench',
      'NetworkPolicy/servers-from-client',
      ...secret,
      'Service/client',
      'Service/server-a',
      'Service/server-b',
    ]);
    const { status, output } = validate(text);
    expect({ status, output }).toEqual({ status: 0, output: '' });
  });

  it('fails a manifest with a misspelt field, naming it', () => {
    const { status, output } = validate(renderDir(path.join(__dirname, 'fixtures/k8s-wrong-field')));
    expect(status).not.toBe(0);
    expect(output).toContain('deployment/server-b');
    expect(output).toContain("spec.template.spec.containers.0.readinessProbe: Additional properties are not allowed ('periodSecond' was unexpected)");
  });

  it('give every app the ports and environment it reads, probes on its health endpoints, limits and a non-root, read-only container', () => {
    const manifests = parse(renderDir(path.join(K8S, 'base')));
    const settings = manifests.find((m) => m.kind === 'ConfigMap')!.data!;
    expect(settings).toMatchObject({ HOST: '0.0.0.0', CLIENT_PORT: '3000', SERVER_A_PORT: '3001', SERVER_B_PORT: '3002', SERVER_A_URL: 'http://server-a:3001', SERVER_B_URL: 'server-b:3002', VARIANT: 'blog' });
    const probes: Record<string, unknown> = {};
    for (const app of APPS) {
      const container = containerOf(find(manifests, 'Deployment', app));
      const port = Number(settings[{ 'server-a': 'SERVER_A_PORT', 'server-b': 'SERVER_B_PORT', client: 'CLIENT_PORT' }[app]]);
      expect(container.command).toEqual(['node', `apps/${app}/dist/main.js`]);
      expect(container.ports[0].containerPort).toBe(port);
      // The Service answers on the port the other apps' URLs name, and sends it to the container's port.
      const service = find(manifests, 'Service', app).spec!;
      expect(service.ports[0]).toMatchObject({ port, targetPort: container.ports[0].name });
      probes[app] = { readiness: container.readinessProbe.httpGet ?? container.readinessProbe.grpc, liveness: container.livenessProbe.httpGet ?? container.livenessProbe.grpc };
      expect(container.resources.requests).toBeDefined();
      expect(container.resources.limits).toBeDefined();
    }
    expect(probes).toEqual({
      'server-a': { readiness: { path: '/health', port: 'http' }, liveness: { path: '/health', port: 'http' } },
      'server-b': { readiness: { port: 3002 }, liveness: { port: 3002 } },
      client: { readiness: { path: '/health/ready', port: 'http' }, liveness: { path: '/health', port: 'http' } },
    });
    for (const workload of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const pod = workload.spec!.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(containerOf(workload).securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect(containerOf(workload).envFrom).toEqual([{ configMapRef: { name: expect.stringMatching(/^bench-settings-/) } }]);
      expect(containerOf(workload).env.map((e: { name: string }) => e.name)).toEqual(expect.arrayContaining(['K8S_POD_NAME', 'K8S_NODE_NAME', 'K8S_CPU_LIMIT_MILLIS']));
    }
  });

  it('guard the control API: a generated token for the client and the Job only, network policies, no service account token, a pinned image', () => {
    const render = () => parse(renderRun(['--overlay', 'spread', '--', '--profile', 'quick']));
    const manifests = render();
    // The token: from a Secret run.sh generates, 32 random bytes, new on every render; none committed.
    const [secret] = manifests.filter((m) => m.kind === 'Secret');
    const token = Buffer.from(secret.data!.token, 'base64').toString('utf8');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(render().find((m) => m.kind === 'Secret')!.data!.token, 'base64').toString('utf8')).not.toBe(token);
    expect(parse(renderDir(path.join(K8S, 'base'))).filter((m) => m.kind === 'Secret')).toEqual([]);
    const tokenFrom = (workload: Manifest) => (containerOf(workload).env as EnvVar[]).find((e) => e.name === 'BENCH_TOKEN')?.valueFrom?.secretKeyRef;
    for (const name of ['client', 'bench']) {
      expect(tokenFrom(find(manifests, name === 'bench' ? 'Job' : 'Deployment', name))).toEqual({ name: secret.metadata.name, key: 'token' });
    }
    for (const server of ['server-a', 'server-b']) expect(tokenFrom(find(manifests, 'Deployment', server))).toBeUndefined();

    // Only the Job reaches the client; only the client reaches the servers; no one reaches the Job.
    const labelOf = (workload: Manifest) => workload.spec!.template.metadata.labels['app.kubernetes.io/name'] as string;
    const selects = (selector: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; values: string[] }[] }, label: string) =>
      Object.entries(selector.matchLabels ?? {}).every(([key, value]) => key === 'app.kubernetes.io/name' && value === label) &&
      (selector.matchExpressions ?? []).every((e) => e.key === 'app.kubernetes.io/name' && e.values.includes(label));
    const workloads = manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job');
    const policies = manifests.filter((m) => m.kind === 'NetworkPolicy');
    const admitted = Object.fromEntries(
      workloads.map((w) => {
        const mine = policies.filter((p) => selects(p.spec!.podSelector, labelOf(w)));
        expect({ pod: labelOf(w), policies: mine.length }).toEqual({ pod: labelOf(w), policies: 1 });
        const rules = (mine[0].spec!.ingress ?? []) as { from: { podSelector: Record<string, unknown> }[]; ports: { port: number }[] }[];
        const from = workloads.filter((other) => rules.some((rule) => rule.from.some((peer) => selects(peer.podSelector, labelOf(other)))));
        return [labelOf(w), { from: from.map(labelOf), ports: rules.flatMap((rule) => rule.ports.map((p) => p.port)).sort() }];
      }),
    );
    expect(admitted).toEqual({
      client: { from: ['bench'], ports: [3000] },
      'server-a': { from: ['client'], ports: [3001, 3002, 3003] },
      'server-b': { from: ['client'], ports: [3001, 3002, 3003] },
      bench: { from: [], ports: [] },
    });

    // No pod carries a service account token; every image is the pinned tag, never latest.
    for (const text of RENDERINGS.slice(0, 3).map(([, r]) => r())) {
      for (const workload of parse(text).filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
        expect({ name: workload.metadata.name, automount: workload.spec!.template.spec.automountServiceAccountToken }).toEqual({ name: workload.metadata.name, automount: false });
        expect(containerOf(workload).image).toBe(`nest-grpc-vs-json-bench:${VERSION}`);
      }
      expect(text).not.toContain(':latest');
    }
    for (const image of ['nest-grpc-vs-json-bench:latest', 'registry.example/bench']) {
      const refused = spawnSync('bash', [path.join(K8S, 'run.sh'), '--render', '--image', image], { encoding: 'utf8' });
      expect({ status: refused.status, stderr: refused.stderr }).toEqual({ status: 2, stderr: expect.stringContaining('give a fixed tag') });
    }
  });

  it('place the client apart from the servers (spread) or beside them (packed), and pin in whole CPUs', () => {
    const affinity = (text: string, app: string) => find(parse(text), 'Deployment', app).spec!.template.spec.affinity;
    const spread = renderDir(path.join(K8S, 'overlays/spread'));
    expect(affinity(spread, 'client').podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
      { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: ['server-a', 'server-b'] }] } },
    ]);
    const beside = (app: string) => ({ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'app.kubernetes.io/name': app } } });
    for (const server of ['server-a', 'server-b']) expect(affinity(spread, server).podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([beside('client')]);
    const packed = renderDir(path.join(K8S, 'overlays/packed'));
    // One term each: a pod's required podAffinity terms must all match one existing pod, so the client
    // follows server-a alone (server-b is beside it already); a term per server would never schedule.
    expect(affinity(packed, 'client').podAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([beside('server-a')]);
    expect(affinity(packed, 'server-b').podAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([beside('server-a')]);
    for (const [text, placement] of [[spread, 'spread'], [packed, 'packed']]) expect(parse(text).find((m) => m.kind === 'ConfigMap')!.data!.K8S_PLACEMENT).toBe(placement);

    // Unpinned, the four pods ask for less than one CPU together, so a 2-CPU node holds them all (packed).
    const millis = (cpu: string | number) => (String(cpu).endsWith('m') ? Number(String(cpu).slice(0, -1)) : Number(cpu) * 1000);
    const requested = parse(packed)
      .filter((m) => m.kind === 'Deployment' || m.kind === 'Job')
      .reduce((sum, workload) => sum + millis(containerOf(workload).resources.requests.cpu), 0);
    expect(requested).toBeLessThan(1000);
    // Every Node sizes its heap from its container's memory limit (the 1,000,000-row case outgrows Node's own default there).
    expect(parse(packed).find((m) => m.kind === 'ConfigMap')!.data!.NODE_OPTIONS).toBe('--max-old-space-size-percentage=70');

    // Guaranteed QoS: every container's requests equal its limits, CPUs whole.
    const pinned = parse(renderRun(['--overlay', 'packed', '--pinned', '--variant', 'tuned', '--image', 'registry.example/bench:v1', '--', '--profile', 'quick', '--cases', '1-1']));
    for (const workload of pinned.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const { requests, limits, ...rest } = containerOf(workload).resources;
      expect({ name: workload.metadata.name, requests, rest }).toEqual({ name: workload.metadata.name, requests: limits, rest: {} });
      expect(String(limits.cpu)).toMatch(/^\d+$/);
      expect(containerOf(workload).image).toBe('registry.example/bench:v1');
    }
    // One map sets VARIANT for the client and both servers, so they cannot disagree; the Job waits, suspended, for run.sh.
    expect(pinned.find((m) => m.kind === 'ConfigMap')!.data).toMatchObject({ VARIANT: 'tuned', NODE_OPTIONS: `--max-old-space-size-percentage=70 ${nodeOptionsFor('tuned')}`, K8S_IMAGE: 'registry.example/bench:v1', K8S_PLACEMENT: 'packed' });
    const job = find(pinned, 'Job', 'bench');
    expect(job.spec).toMatchObject({ suspend: true, backoffLimit: 0 });
    expect(containerOf(job).args).toEqual(['--profile', 'quick', '--cases', '1-1']);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The rendered containers as plain processes.

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string }; resourceFieldRef?: { resource: string; divisor?: string }; secretKeyRef?: { name: string; key: string } };
}

/** A Kubernetes quantity ("2", "500m", "6Gi") in base units. */
function quantity(text: string | number): number {
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(String(text));
  if (!m) throw new Error(`quantity ${text} not understood`);
  const scale: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };
  return Number(m[1]) * (m[2] ? scale[m[2]] : 1);
}

/**
 * A container's environment as the kubelet gives it (the ConfigMap whole, then the downward API), on this
 * machine: Service names resolve to 127.0.0.1 and the manifests' ports move to free ones (`ports`), so this
 * test never collides with another that uses the apps' default ports.
 */
function containerEnv(workload: Manifest, configMap: Manifest, ports: Map<number, number>, secrets: Manifest[] = []): NodeJS.ProcessEnv {
  const container = containerOf(workload);
  const local = (value: string) =>
    value
      .replace(/\b(server-a|server-b|client):(\d+)\b/g, (_m, _host, port: string) => `127.0.0.1:${ports.get(Number(port)) ?? port}`)
      .replace(/^\d+$/, (port) => String(ports.get(Number(port)) ?? port));
  // KUBERNETES_SERVICE_HOST: the kubelet gives every container the API Service's address (here the local cluster's).
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: os.tmpdir(), KUBERNETES_SERVICE_HOST: '198.19.226.1' };
  for (const [name, value] of Object.entries(configMap.data ?? {})) env[name] = local(value);
  for (const variable of (container.env ?? []) as EnvVar[]) {
    const field = variable.valueFrom?.fieldRef?.fieldPath;
    const resource = variable.valueFrom?.resourceFieldRef;
    const secret = variable.valueFrom?.secretKeyRef;
    if (variable.value !== undefined) env[variable.name] = local(variable.value);
    else if (secret) {
      const data = secrets.find((m) => m.metadata.name === secret.name)?.data?.[secret.key];
      if (data === undefined) throw new Error(`${workload.metadata.name}: secret ${secret.name} key ${secret.key} is not in the rendered manifests`);
      env[variable.name] = Buffer.from(data, 'base64').toString('utf8');
    }
    else if (field) env[variable.name] = { 'metadata.name': `${workload.metadata.name}-local`, 'metadata.namespace': 'default', 'spec.nodeName': os.hostname() }[field];
    else if (resource) {
      const [kind, what] = resource.resource.split('.');
      env[variable.name] = String(Math.ceil(quantity(container.resources[kind][what]) / quantity(resource.divisor ?? '1')));
    }
  }
  return env;
}

function probePort(container: Record<string, any>, port: string | number, ports: Map<number, number>): number { // eslint-disable-line @typescript-eslint/no-explicit-any
  const number = typeof port === 'number' ? port : container.ports.find((p: { name: string }) => p.name === port).containerPort;
  return ports.get(number) ?? number;
}

/** One probe, as the kubelet makes it: HTTP GET answered 2xx, or grpc.health.v1.Health/Check answered SERVING. */
async function probeOnce(container: Record<string, any>, probe: Record<string, any>, ports: Map<number, number>): Promise<string> { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (probe.httpGet) {
    const url = `http://127.0.0.1:${probePort(container, probe.httpGet.port, ports)}${probe.httpGet.path}`;
    const response = await fetch(url, { signal: AbortSignal.timeout(probe.timeoutSeconds * 1000) }).catch(() => null);
    return response ? `HTTP ${response.status}` : 'no answer';
  }
  const { Health } = (grpc.loadPackageDefinition(samplePackageDefinition()).grpc as any).health.v1; // eslint-disable-line @typescript-eslint/no-explicit-any
  const client = new Health(`127.0.0.1:${probePort(container, probe.grpc.port, ports)}`, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.Check({ service: probe.grpc.service ?? '' }, { deadline: Date.now() + probe.timeoutSeconds * 1000 }, (error: Error | null, reply: { status: string }) => {
      client.close();
      resolve(error ? 'no answer' : reply.status);
    });
  });
}

async function probeUntil(container: Record<string, any>, probe: Record<string, any>, ports: Map<number, number>, ok: string, tries = 80): Promise<string> { // eslint-disable-line @typescript-eslint/no-explicit-any
  let last = '';
  for (let i = 0; i < tries; i++) {
    last = await probeOnce(container, probe, ports);
    if (last === ok) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last;
}

/** As root (CI), the apps run as the image's uid 1000, which cannot write the tree: the nearest thing here to a read-only root filesystem. */
const AS_POD_USER = process.getuid?.() === 0 ? { uid: 1000, gid: 1000 } : {};

describeWithTools('deploy/k8s containers as plain processes', { validator: false }, () => {
  const children: ChildProcess[] = [];
  let scratch: string;
  /** The Job's log from the first test, for the second. */
  let jobLog = '';

  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-k8s-'));
    fs.chmodSync(scratch, 0o777);
  });
  afterAll(async () => {
    await Promise.all(children.map(stopProcess));
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('start from the rendered commands, answer their probes, and the Job delivers a run that unpack.sh restores for bench:compare', async () => {
    // As a user would run it: the packed overlay, tuned, and the tiny profile as the Job's arguments.
    const manifests = parse(renderRun(['--overlay', 'packed', '--variant', 'tuned', '--', '--profile', 'quick', '--cases', '1-1']));
    const configMap = manifests.find((m) => m.kind === 'ConfigMap')!;
    const secrets = manifests.filter((m) => m.kind === 'Secret');
    const ports = new Map<number, number>();
    for (const app of APPS) ports.set(containerOf(find(manifests, 'Deployment', app)).ports[0].containerPort, await freePort());

    const answers: Record<string, string> = {};
    for (const app of APPS) {
      const workload = find(manifests, 'Deployment', app);
      const container = containerOf(workload);
      const env = containerEnv(workload, configMap, ports, secrets);
      const child = spawn(container.command[0], [...container.command.slice(1), ...(container.args ?? [])], { cwd: ROOT, env, stdio: 'ignore', ...AS_POD_USER });
      children.push(child);
      answers[`${app} readiness`] = await probeUntil(container, container.readinessProbe, ports, container.readinessProbe.grpc ? 'SERVING' : 'HTTP 200');
      answers[`${app} liveness`] = await probeOnce(container, container.livenessProbe, ports);
    }
    expect(answers).toEqual({
      'server-a readiness': 'HTTP 200',
      'server-a liveness': 'HTTP 200',
      'server-b readiness': 'SERVING',
      'server-b liveness': 'SERVING',
      'client readiness': 'HTTP 200',
      'client liveness': 'HTTP 200',
    });
    // The client's control API wants the Secret's token; only the Job has it.
    expect((await fetch(`http://127.0.0.1:${ports.get(containerOf(find(manifests, 'Deployment', 'client')).ports[0].containerPort)}/bench/info`)).status).toBe(401);

    // The Job's command and arguments, with its environment; its results directory is the pod's /tmp.
    const job = find(manifests, 'Job', 'bench');
    const container = containerOf(job);
    const env = { ...containerEnv(job, configMap, ports, secrets), RESULTS_DIR: path.join(scratch, 'pod-tmp/results') };
    fs.mkdirSync(path.join(scratch, 'pod-tmp'), { mode: 0o777 });
    fs.chmodSync(path.join(scratch, 'pod-tmp'), 0o777);
    const log = await new Promise<{ status: number | null; text: string }>((resolve) => {
      const child = spawn(container.command[0], [...container.command.slice(1), ...container.args], { cwd: ROOT, env, ...AS_POD_USER });
      let text = '';
      // `kubectl logs` interleaves the container's stdout and stderr, as this does.
      child.stdout.on('data', (chunk) => (text += chunk));
      child.stderr.on('data', (chunk) => (text += chunk));
      child.on('exit', (status) => resolve({ status, text }));
    });
    expect({ status: log.status, tail: log.text.slice(-300) }).toMatchObject({ status: 0 });
    expect(log.text).toMatch(/^----- BEGIN BENCH RUN \d{4}-.+\.tar\.gz sha256=[0-9a-f]{64} -----$/m);
    expect(log.text).toMatch(/^----- END BENCH RUN -----$/m);
    jobLog = log.text;

    // The documented retrieval: `kubectl logs job/bench | deploy/k8s/unpack.sh results`.
    const results = path.join(scratch, 'results');
    const unpack = spawnSync('bash', [path.join(K8S, 'unpack.sh'), results], { input: log.text, encoding: 'utf8' });
    expect({ status: unpack.status, stderr: unpack.stderr }).toEqual({ status: 0, stderr: '' });
    const restored = unpack.stdout.trim();
    const original = path.join(env.RESULTS_DIR, path.basename(restored));
    expect(fs.readFileSync(path.join(restored, 'results.json'), 'utf8')).toBe(fs.readFileSync(path.join(original, 'results.json'), 'utf8'));
    expect(fs.readdirSync(restored).sort()).toEqual(expect.arrayContaining(['report.html', 'results.csv', 'results.json', 'results.md']));
    expect(fs.realpathSync(path.join(results, 'latest'))).toBe(fs.realpathSync(restored));
    // Owned by whoever restored it, not by the pod's user.
    for (const file of [restored, path.join(restored, 'results.json')]) expect(fs.statSync(file).uid).toBe(process.getuid!());

    // bench:compare reads the restored run (against the pod's own copy: every cell the same).
    const compare = spawnSync('node', [path.join(ROOT, 'tools/bench/dist/compare-main.js'), '--base', original, '--head', restored], { encoding: 'utf8' });
    expect({ status: compare.status, stderr: compare.stderr }).toEqual({ status: 0, stderr: '' });
    expect(compare.stdout).toContain('①-1');

    // The run says where it ran: the client's pod and the bench's own, from the downward API.
    const { doc } = readRun(restored);
    const expectedPod = (name: string) => ({ podName: `${name}-local`, namespace: 'default', nodeName: os.hostname(), cpuRequestMillis: 250, cpuLimitMillis: 2000, image: `nest-grpc-vs-json-bench:${VERSION}`, placement: 'packed' });
    expect(doc.results.map((r) => `${r.variant}/${r.ok}`)).toEqual(['tuned/true', 'tuned/true']);
    const provenance = doc.provenance as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(provenance.clients.tuned.kubernetes).toMatchObject(expectedPod('client'));
    expect(provenance.bench.kubernetes).toMatchObject({ ...expectedPod('bench'), cpuRequestMillis: 100, cpuLimitMillis: 1000 });
    // results.md describes the pods, not a loopback run.
    const markdown = fs.readFileSync(path.join(restored, 'results.md'), 'utf8');
    expect(markdown).toContain(`(pod client-local on node ${os.hostname()}, placement packed)`);
    expect(markdown).not.toContain('every app on 127.0.0.1');
    // Its network is the pod network, by name, in the cells and the path measured on it.
    expect(doc.results.map((r) => r.network)).toEqual(['pod-network', 'pod-network']);
    expect(Object.keys(provenance.path)).toEqual(['pod-network/tuned']);
    expect(markdown).toContain("network pod-network: The cluster's pod network");

    // A damaged or cut log is refused, not half-extracted.
    const cut = log.text.replace(/^----- END BENCH RUN -----$/m, '');
    const refused = spawnSync('bash', [path.join(K8S, 'unpack.sh'), path.join(scratch, 'other')], { input: cut, encoding: 'utf8' });
    expect({ status: refused.status, stderr: refused.stderr }).toEqual({ status: 1, stderr: expect.stringContaining('cut short') });
    expect(fs.existsSync(path.join(scratch, 'other'))).toBe(false);
  }, 120_000);

  it("run.sh's cluster steps, against a stand-in kubectl: apply suspended, roll out, start the Job, restore its run", () => {
    expect(jobLog).not.toBe('');
    // The stand-in records each call, renders what it is asked to apply, and answers as a cluster whose Job succeeded.
    const fake = path.join(scratch, 'fake-kubectl');
    fs.mkdirSync(fake);
    fs.writeFileSync(path.join(fake, 'bench.log'), jobLog);
    fs.writeFileSync(
      path.join(fake, 'kubectl'),
      [
        '#!/usr/bin/env bash',
        'echo "$*" >> "$FAKE/calls"',
        'case "$*" in',
        '  *"get nodes"*) printf "node-1  \\nnode-2  \\n" ;;',
        '  *"apply -k "*) $RENDER "${@: -1}" > "$FAKE/applied.yaml" ;;',
        '  *"job-name=bench"*) printf Succeeded ;;',
        '  *"{.status.succeeded}"*) printf 1 ;;',
        '  *"logs "*) cat "$FAKE/bench.log" ;;',
        '  *custom-columns*) printf "POD NODE\\nclient-x node-1\\n" ;;',
        'esac',
      ].join('\n'),
      { mode: 0o755 },
    );
    const results = path.join(scratch, 'run-sh-results');
    const renderer = [spawnSync('sh', ['-c', `command -v ${RENDERER![0]}`], { encoding: 'utf8' }).stdout.trim(), RENDERER![1]];
    const env = { ...process.env, FAKE: fake, RENDER: renderer.join(' '), PATH: `${fake}:${process.env.PATH}` };
    const run = spawnSync('bash', [path.join(K8S, 'run.sh'), '--overlay', 'spread', '--namespace', 'bench', '--results', results, '--', '--profile', 'quick'], { env, encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toMatchObject({ status: 0 });
    expect(run.stderr).not.toContain('BEGIN BENCH RUN');
    const calls = fs.readFileSync(path.join(fake, 'calls'), 'utf8').trim().split('\n').map((call) => call.replace(/ \S*\.run\.\w+$/, ' DIR'));
    expect(calls[0]).toContain('get nodes');
    expect(calls.slice(1, 7)).toEqual([
      '--namespace bench delete job bench --ignore-not-found --wait=true',
      '--namespace bench apply -k DIR',
      '--namespace bench rollout status deployment/server-a --timeout=600s',
      '--namespace bench rollout status deployment/server-b --timeout=600s',
      '--namespace bench rollout status deployment/client --timeout=600s',
      '--namespace bench patch job bench --type merge -p {"spec":{"suspend":false}}',
    ]);
    const applied = parse(fs.readFileSync(path.join(fake, 'applied.yaml'), 'utf8'));
    expect(find(applied, 'Job', 'bench').spec).toMatchObject({ suspend: true });
    expect(containerOf(find(applied, 'Job', 'bench')).args).toEqual(['--profile', 'quick']);
    const [run_] = fs.readdirSync(results).filter((name) => /^\d{4}-/.test(name));
    expect(readRun(path.join(results, run_)).doc.results.length).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(results, run_, 'kubernetes-pods.txt'), 'utf8')).toContain('client-x node-1');
  });
});
