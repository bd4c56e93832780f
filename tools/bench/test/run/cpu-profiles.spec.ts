// The profiler as the run drives it, against a real Node process that loads the built agent: started
// and stopped around "calls", its stretches merged per cell and process into a file and a summary.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CpuProfiles, cpuProfileAgent, profileFolder, profilerCommand } from '../../src/run/cpu-profiles';
import { CPU_PROFILE_INTERVAL_ENV, CPU_PROFILE_SOCKET_ENV } from '../../src/run/cpu-profile-agent';
import { ROOT } from '../run-bench';
import { describeNeeding } from '../needs';

const agent = cpuProfileAgent(ROOT);
const cell = { network: 'loopback', runtime: '24', security: 'plain', variant: 'blog', case: '①-2', transport: 'grpc' } as const;

/**
 * A process that keeps a CPU busy in a named function until killed, with the agent on `socket`. The busy
 * loop is optimized on stack before the first stretch: without the agent's keeper its samples were put on
 * listOnTimeout, the timer that calls it.
 */
function busyApp(socket: string, intervalUs: number): Promise<ChildProcess> {
  const program = 'function spin(){const end=Date.now()+5;let x=0;while(Date.now()<end)x+=Math.sqrt(x+1);return x}setInterval(spin,1);process.stdout.write("up\\n")';
  const child = spawn(process.execPath, ['--require', agent, '-e', program], { env: { ...process.env, [CPU_PROFILE_SOCKET_ENV]: socket, [CPU_PROFILE_INTERVAL_ENV]: String(intervalUs) }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => {
      // The agent listens before the program runs; give its socket a moment to appear.
      const wait = () => (fs.existsSync(socket) ? resolve(child) : setTimeout(wait, 20));
      wait();
    });
    child.once('error', reject);
  });
}

describeNeeding('cpu profiles (a real Node process with the agent)', [fs.existsSync(agent) ? null : `${agent} (build the bench: npx nx run bench:build)`], () => {
  let runDir: string;
  let profiles: CpuProfiles;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpu-profiles-spec-'));
    profiles = new CpuProfiles(runDir, agent);
  });

  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    profiles.remove();
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  it('merges the stretches of a cell into one .cpuprofile per process, summarized', async () => {
    const set = profiles.forNewSet();
    // Only the client runs here; the servers' sockets answer nothing, which is noted, never thrown.
    children.push(await busyApp(set.sockets.client, set.intervalUs));
    // Time for V8 to optimize the loop on stack, as a server's code is before its timed calls.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let call = 0; call < 3; call++) {
      await profiles.start(set.sockets, cell, 'node');
      await new Promise((resolve) => setTimeout(resolve, 60));
      await profiles.stop(set.sockets, cell, 'node');
    }
    const summary = profiles.summaryOf(cell)!;
    expect(summary.intervalUs).toBe(200);
    const client = summary.processes.find((p) => p.process === 'client')!;
    expect(client.calls).toBe(3);
    expect(client.intervalUs).toBe(200);
    expect(client.error).toBeUndefined();
    expect(client.file).toBe(path.join('profiles', 'loopback-blog-1-2-grpc', 'client.cpuprofile'));
    const written = JSON.parse(fs.readFileSync(path.join(runDir, client.file!), 'utf8'));
    expect(written.samples.length).toBe(written.timeDeltas.length);
    expect(client.busyMs).toBeGreaterThan(0);
    expect(client.functions.map((f) => f.name)).toContain('spin');
    const server = summary.processes.find((p) => p.process === 'server-b')!;
    expect(server).toMatchObject({ calls: 0, file: null });
    expect(server.error).toMatch(/start: .*ENOENT|start: .*ECONNREFUSED/);
    expect(profiles.summaryOf({ ...cell, transport: 'json' })).toBeUndefined();
    const sockets = path.dirname(set.sockets.client);
    profiles.remove();
    expect(fs.existsSync(sockets)).toBe(false);
  });

  it('answers a bad command with an error, and a stop without a start', async () => {
    const set = profiles.forNewSet();
    children.push(await busyApp(set.sockets.client, set.intervalUs));
    await expect(profilerCommand(set.sockets.client, { op: 'nonsense' })).rejects.toThrow(/error: not a command/);
    await expect(profilerCommand(set.sockets.client, { op: 'stop', file: path.join(runDir, 'x') })).rejects.toThrow(/error:/);
    await expect(profilerCommand(set.sockets.client, { op: 'start', intervalUs: 500 })).rejects.toThrow(/samples every 200 µs/);
    await expect(profilerCommand(set.sockets.client, { op: 'start', intervalUs: 200 })).resolves.toBeUndefined();
  });
});

describe('profileFolder', () => {
  it('spells a cell with what every file system takes', () => {
    expect(profileFolder({ network: 'region+names', runtime: '22', security: 'mtls', variant: 'tuned', case: '20k×4', transport: 'connect-proto' })).toBe('region+names-tuned-20kx4-connect-proto-node22-mtls');
    expect(profileFolder(cell)).toBe('loopback-blog-1-2-grpc');
  });
});
