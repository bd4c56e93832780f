// bench:network: bring a network stage up by hand, look inside it, break its wire, take it down.
//   npx nx run bench:network -- up <profile> | down | status | shell <client|server|router> | fault <id|clear> | fetch-envoy
// network/'s entry point, above its sub-rooms: the stage's commands, and the path's Envoy fetched, each through its index.ts.
import { spawnSync } from 'node:child_process';
import { HELP_WIDTH, runTool, UsageError, wrap, type Command, type CommandLine } from '../cli';
import { ENVOY, resolveEnvoy } from './path';
import {
  cleanupLeftovers,
  faultCommand,
  findFault,
  findProfile,
  isAlive,
  isHeld,
  isStageNamespace,
  listNamespaces,
  loadProfiles,
  lockPath,
  ProfileError,
  readLock,
  runStageCommand,
  startStage,
  tryStageCommand,
  usesStage,
  WIRE_FAULTS,
} from './stage';

const OPTIONS = {
  'run-id': { kind: 'text', value: 'ID', description: 'with up: the run id the stage is recorded under', defaultText: 'cli-<pid>' },
  'no-calibrate': { kind: 'switch', description: 'with up: do not calibrate the stage once it is up' },
  broker: { kind: 'switch', description: "with up: add the brokers' namespace behind the router (client → broker → server, each hop delayed; docs/brokers.md)" },
} as const;

export const NETWORK_COMMAND: Command<typeof OPTIONS> = {
  name: 'bench:network',
  synopsis: 'npx nx run bench:network -- <command> [options]',
  about: 'Brings a network stage up by hand, looks inside it, breaks its wire, takes it down.',
  options: OPTIONS,
  positionals: true,
  notes: `Commands:
  up <profile>    build the stage for <profile>, calibrate it, and keep it up until Ctrl-C or \`down\`
  down            take the stage down (signals its owner), and remove any leftover namespaces of ours
  status          the stage that is up, if any, and leftover namespaces
  shell <client|server|router|broker>
                  a shell inside that namespace of the stage that is up (try: ping, curl, ss -ti)
  fetch-envoy     fetch the mesh path's pinned Envoy into the bench's cache (else fetched on first use)
  fault <${WIRE_FAULTS.map((f) => f.id).join('|')}|clear>
                  break the wire of the stage that is up (a bench run's too), or mend it:
${WIRE_FAULTS.flatMap((f) => wrap(`${f.id}: ${f.description}`, HELP_WIDTH - 18).map((line) => ' '.repeat(18) + line)).join('\n')}

Profiles: ${loadProfiles()
    .map((p) => p.name)
    .join(', ')}`,
};

async function main({ values, positionals }: CommandLine<typeof OPTIONS>): Promise<number> {
  const [command, arg, ...extra] = positionals;
  if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
  switch (command) {
    case 'up':
      if (!arg) throw new UsageError('up needs a profile');
      return up(arg, values['run-id'] ?? `cli-${process.pid}`, !values['no-calibrate'], values.broker === true);
    case 'down':
      if (arg) throw new UsageError(`down takes no argument (got ${arg})`);
      return down();
    case 'status':
      if (arg) throw new UsageError(`status takes no argument (got ${arg})`);
      return status();
    case 'shell':
      if (arg !== 'client' && arg !== 'server' && arg !== 'router' && arg !== 'broker') throw new UsageError('shell needs client, server, router or broker');
      return shell(arg);
    case 'fault':
      if (arg !== 'clear' && !WIRE_FAULTS.some((f) => f.id === arg)) throw new UsageError(`fault needs one of ${WIRE_FAULTS.map((f) => f.id).join(', ')} or clear`);
      return fault(arg);
    case 'fetch-envoy':
      if (arg) throw new UsageError(`fetch-envoy takes no argument (got ${arg})`);
      log(`Envoy ${ENVOY.version}: ${resolveEnvoy()}`);
      return 0;
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command given');
  }
}

async function up(profileName: string, runId: string, calibrate: boolean, broker: boolean): Promise<number> {
  let profile;
  try {
    profile = findProfile(profileName);
  } catch (error) {
    if (error instanceof ProfileError) throw new UsageError(error.message);
    throw error;
  }
  if (!usesStage(profile)) throw new UsageError(`profile "${profile.name}" has no stage (it is the host's loopback)`);
  const stage = await startStage(profile, { runId, broker });
  const record = stage.record();
  log(`network stage "${profile.name}" is up: client ${stage.hosts.client} in ${record.namespaces.client}, servers ${stage.hosts.server} in ${record.namespaces.server}${stage.broker ? `, brokers ${stage.broker.host} in ${stage.broker.namespace}` : ''}`);
  const trim = record.delayer?.trim;
  if (record.delayer && trim) {
    log(`delayer pid ${record.delayer.pid}: holds each client → server packet ${trim.configuredHoldUs} µs (the whole round trip's delay; the stage adds ${trim.overheadMs} ms of RTT; tuned in ${trim.steps.length} steps: ${trim.steps.map((s) => `${s.holdUs} µs → ${s.rttMs} ms`).join(', ')})`);
  }
  const receive = record.receiveThread;
  if (receive) log(receive.pids.length > 0 ? `servers' receive thread: pid ${receive.pids.join(', ')} (threaded NAPI on ${receive.device})` : `servers' receive work stays in the delayer's context: ${'why' in receive ? receive.why : ''}`);
  if (calibrate) {
    const calibration = await stage.calibrate();
    process.stdout.write(`${JSON.stringify(calibration, null, 2)}\n`);
    log(calibration.verdict === 'ok' ? 'calibration: ok' : `calibration: REFUSE: ${calibration.reasons.join('; ')}`);
  }
  log(`shell: npx nx run bench:network -- shell client   (then: ping ${stage.hosts.server})`);
  log('Ctrl-C or `npx nx run bench:network -- down` takes it down');
  // Signal listeners alone do not keep Node running: the timer does, until a signal arrives.
  const keepAlive = setInterval(() => undefined, 60_000);
  await new Promise<void>((resolve) => {
    // `on`, not `once`: while a listener remains, the stage's own signal hook tears down without
    // re-raising the signal, so this process lives on to report.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => resolve());
  });
  clearInterval(keepAlive);
  const cpu = await stage.stop();
  log(`network stage down${cpu ? ` (delayer: ${cpu.cpuMs} ms CPU for ${cpu.packets} packets)` : ''}`);
  return 0;
}

async function down(): Promise<number> {
  const holder = readLock();
  if (holder && isHeld(holder)) {
    log(`stopping the stage of pid ${holder.pid} (profile ${holder.profile})`);
    process.kill(holder.pid, 'SIGTERM');
    const deadline = Date.now() + 15_000;
    while (isAlive(holder.pid) && readLock()?.pid === holder.pid && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const report = cleanupLeftovers();
  if (report.removed.length) log(`removed leftovers: ${report.removed.join(', ')}${report.killed.length ? ` (killed pids ${report.killed.join(', ')})` : ''}`);
  if (report.workDirs.length) log(`removed leftover work folders: ${report.workDirs.join(', ')}`);
  report.failures.forEach((failure) => log(failure));
  if (report.kept.length) log(`still up (its owner did not stop in time): ${report.kept.join(', ')}`);
  return report.failures.length || report.kept.length ? 1 : 0;
}

function status(): number {
  const holder = readLock();
  const live = holder && isHeld(holder) ? holder : null;
  if (live) log(`up: profile ${live.profile}, run ${live.runId}, owner pid ${live.pid}, since ${live.startedAt}\n  namespaces: ${Object.values(live.namespaces).join(', ')}`);
  else log(`no network stage is up${holder ? ` (stale lock of dead pid ${holder.pid} at ${lockPath()})` : ''}`);
  const ours = listNamespaces().filter(isStageNamespace);
  const leftovers = ours.filter((ns) => !live || !Object.values(live.namespaces).includes(ns));
  if (leftovers.length) log(`leftover namespaces (\`down\` removes them): ${leftovers.join(', ')}`);
  return 0;
}

function shell(host: 'client' | 'server' | 'router' | 'broker'): number {
  const holder = readLock();
  if (!holder || !isHeld(holder)) throw new Error('no network stage is up: start one with `npx nx run bench:network -- up <profile>`');
  const ns = host === 'broker' ? holder.namespaces.router.replace(/-router$/, '-broker') : holder.namespaces[host];
  log(`shell in ${ns} (exit to leave)`);
  const result = spawnSync('ip', ['netns', 'exec', ns, process.env.SHELL || 'bash'], { stdio: 'inherit' });
  return result.status ?? 1;
}

/** Puts one wire fault in the stage's router (taking out any other first), or takes them all out. */
function fault(id: string): number {
  const holder = readLock();
  if (!holder || !isHeld(holder)) throw new Error('no network stage is up: start one with `npx nx run bench:network -- up <profile>`');
  const router = holder.namespaces.router;
  // -D removes one copy per call: repeat until it says there is none.
  const cleared = WIRE_FAULTS.filter((f) => {
    let removed = false;
    for (let i = 0; i < 10 && tryStageCommand(faultCommand(router, f, 'clear')) === null; i++) removed = true;
    return removed;
  });
  if (id === 'clear') {
    log(cleared.length ? `wire mended: removed ${cleared.map((f) => f.id).join(', ')} from ${router}` : `no wire fault in ${router}`);
    return 0;
  }
  const chosen = findFault(id);
  runStageCommand(faultCommand(router, chosen, 'inject'));
  log(`wire fault "${chosen.id}" in ${router}: ${chosen.description}. \`npx nx run bench:network -- fault clear\` mends it`);
  return 0;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

if (require.main === module) runTool(NETWORK_COMMAND, main);
