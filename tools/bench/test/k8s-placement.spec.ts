import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// deploy/k8s/run.sh against placements that cannot fit: it refuses before applying anything, naming the
// node count, and a rollout that stalls prints its pods' events before giving up. kubectl is a stand-in
// on PATH that answers as a cluster would and logs what it was asked; local-cluster.sh's own refusal
// runs as it is (it stops before needing root or a cluster).
const ROOT = path.resolve(__dirname, '../../..');
const RUN = path.join(ROOT, 'deploy/k8s/run.sh');

/** A kubectl that knows NODES (name, unschedulable, taint effects per line) and fails every rollout of the client. */
function fakeKubectl(dir: string, nodes: string): string {
  const log = path.join(dir, 'calls');
  fs.writeFileSync(
    path.join(dir, 'kubectl'),
    `#!/usr/bin/env bash
echo "$*" >> '${log}'
case "$*" in
  *"get nodes"*) printf '%s' '${nodes}' ;;
  *"rollout status deployment/client"*) echo 'error: timed out waiting for the condition' >&2; exit 1 ;;
  *"get pods -l app.kubernetes.io/name=client -o name"*) echo pod/client-7d9f-abcde ;;
  *"get pods"*) echo 'NAME STATUS NODE'; echo 'client-7d9f-abcde Pending <none>' ;;
  *"get events"*) echo '2026-11-28T18:00:00Z Warning FailedScheduling 0/1 nodes are available: 1 node(s) did not match pod anti-affinity rules.' ;;
esac
`,
    { mode: 0o755 },
  );
  return log;
}

function runSh(dir: string, args: string[], script = RUN) {
  return spawnSync('bash', [script, ...args], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}` }, encoding: 'utf8', cwd: ROOT });
}

describe('placement that cannot fit', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-k8s-placement-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('spread on a one-node cluster refuses in one line naming the node, before applying anything', () => {
    const log = fakeKubectl(dir, 'node-1  \n');
    const result = runSh(dir, ['--overlay', 'spread']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('run.sh: --overlay spread needs 2 schedulable nodes (the client on one, the servers on another); the cluster has 1 (node-1): use --overlay packed or base, or add a node');
    expect(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual([expect.stringContaining('get nodes')]);
  });

  it('counts neither a cordoned node nor a tainted control plane', () => {
    fakeKubectl(dir, 'cp  NoSchedule\nworker-1 true \nworker-2  \n');
    expect(runSh(dir, ['--overlay', 'spread']).stderr).toContain('the cluster has 1 (worker-2)');
  });

  it('--fits-nodes checks a count without a cluster; local-cluster.sh refuses spread at once, as any user', () => {
    expect(runSh(dir, ['--overlay', 'packed', '--fits-nodes', '1']).status).toBe(0);
    const local = runSh(dir, ['--overlay', 'spread', '--', '--profile', 'quick'], path.join(ROOT, 'deploy/k8s/local-cluster.sh'));
    expect(local.status).toBe(2);
    expect(local.stderr).toContain('--overlay spread needs 2 schedulable nodes');
    expect(local.stderr).toContain('the cluster has 1:');
    expect(fs.existsSync(path.join(dir, 'calls'))).toBe(false);
  });

  it('a rollout that stalls prints its pods and their scheduling events before giving up', () => {
    const log = fakeKubectl(dir, 'node-1  \nnode-2  \n');
    const result = runSh(dir, ['--overlay', 'spread', '--timeout-s', '1']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('run.sh: deployment/client did not roll out within 1 s; its pods and their events:');
    expect(result.stderr).toContain('client-7d9f-abcde Pending');
    expect(result.stderr).toContain('FailedScheduling 0/1 nodes are available: 1 node(s) did not match pod anti-affinity rules.');
    expect(fs.readFileSync(log, 'utf8')).not.toContain('patch job bench');
  });
});
