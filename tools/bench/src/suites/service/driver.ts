// The open-loop driver, run inside the stage's client namespace (`ip netns exec`), so its calls leave
// from the client's side as a service's would: through the Service's rules, its own DNS view and the
// stage's delay. It is told what to do one line at a time on stdin and answers one JSON line each on
// stdout (protocol below); its own CPU is read from process.cpuUsage, so the calling side is measured
// as carefully as the replicas.
//
//   argv[2]: DriverConfig (JSON)
//   out {"type":"ready"}                          after warm-up
//   in  {"type":"counters", timeoutMs?}            → out {"type":"counters", replicas: {name: ProcessSample}, driverCpuMs}
//   in  {"type":"calls", rate, durationMs, drainMs} → out {"type":"calls", result, log}: every call's due and end time and outcome
//   in  {"type":"step", rate, durationMs}          → out {"type":"step", result}
//   in  {"type":"timeline", rate, durationMs, binMs} → out {"type":"timeline", result, bins}
//   in  {"type":"replicas", replicas}               → out {"type":"replicas"}: whose counters are read from now on
//   in  {"type":"stop"}                            → exits 0
// Commands are served as they come: counters can be read while a step or timeline runs.
import * as readline from 'node:readline';
import { loadSecurity, type ProcessSample } from '@bench/config';
import { summarizeHistogram, type HdrSummary } from '../common/hdr';
import { makeCaller, ReplicaCounters, type CallerOptions } from './clients';
import { runOpenLoop, type OpenLoopResult } from './open-loop';
import { Timeline, type TimelineBin } from './timeline';
import { CallRecorder, type CallLog } from './call-log';

export interface DriverConfig {
  caller: CallerOptions;
  warmup: { rate: number; durationMs: number };
  maxInFlight: number;
  drainMs: number;
  replicas: { name: string; address: string }[];
  /** The port of the replicas' own counters: server-a's for HTTP, server-b's for gRPC. */
  counterPort: number;
  /** The client's security as libs/config reads it (SECURITY_ENV: the mode and the files' paths, never their bytes). */
  securityEnv: Record<string, string>;
}

export type DriverCommand =
  | { type: 'counters'; timeoutMs?: number }
  | { type: 'calls'; rate: number; durationMs: number; drainMs: number }
  | { type: 'step'; rate: number; durationMs: number }
  | { type: 'timeline'; rate: number; durationMs: number; binMs: number }
  | { type: 'replicas'; replicas: DriverConfig['replicas'] }
  | { type: 'stop' };

/** A step as the driver reports it: the open loop's result, its histograms summarized (with their whole HDR form), and its own CPU. */
export type StepResult = Omit<OpenLoopResult, 'corrected' | 'service'> & { corrected: HdrSummary; service: HdrSummary; driverCpuMs: number };

export type DriverReply =
  | { type: 'ready' }
  | { type: 'counters'; replicas: Record<string, ProcessSample | { error: string }>; driverCpuMs: number }
  | { type: 'step'; result: StepResult }
  | { type: 'timeline'; result: StepResult; bins: TimelineBin[] }
  | { type: 'calls'; result: StepResult; log: CallLog }
  | { type: 'replicas' };

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// The protocol owns stdout: whatever else would write there (Nest's logger in a ClientProxy, a client
// library's own lines) goes to stderr, which the bench keeps the tail of for its error messages.
const protocolOut = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2]) as DriverConfig;
  const security = loadSecurity(config.securityEnv);
  const caller = makeCaller(config.caller, security);
  const counters = new ReplicaCounters(config.caller.transport, security);
  const say = (reply: DriverReply): void => void protocolOut(`${JSON.stringify(reply)}\n`);
  const loop = { maxInFlight: config.maxInFlight, drainMs: config.drainMs };
  await caller.connect?.();
  if (config.warmup.durationMs > 0) await runOpenLoop({ ...loop, rate: config.warmup.rate, durationMs: config.warmup.durationMs }, caller.call);
  say({ type: 'ready' });
  let replicas = config.replicas;
  const step = async (rate: number, durationMs: number, observe?: (atMs: number, correctedMs: number, ok: boolean, error?: string) => void, drainMs = loop.drainMs): Promise<StepResult> => {
    const before = cpuMs();
    const r = await runOpenLoop({ ...loop, drainMs, rate, durationMs, observe }, caller.call);
    return { ...r, corrected: summarizeHistogram(r.corrected), service: summarizeHistogram(r.service), driverCpuMs: cpuMs() - before };
  };
  const serve = async (command: DriverCommand): Promise<void> => {
    switch (command.type) {
      case 'counters': {
        const read = await Promise.all(replicas.map(async (r) => [r.name, await counters.read(r.address, config.counterPort, command.timeoutMs).catch((error: Error) => ({ error: error.message }))] as const));
        return say({ type: 'counters', replicas: Object.fromEntries(read), driverCpuMs: cpuMs() });
      }
      case 'replicas':
        replicas = command.replicas;
        return say({ type: 'replicas' });
      case 'step':
        return say({ type: 'step', result: await step(command.rate, command.durationMs) });
      case 'calls': {
        const recorder = new CallRecorder();
        const result = await step(command.rate, command.durationMs, (atMs, correctedMs, ok, error) => recorder.observe(atMs, correctedMs, ok, error), command.drainMs);
        return say({ type: 'calls', result, log: recorder.close() });
      }
      case 'timeline': {
        const timeline = new Timeline(command.binMs);
        const result = await step(command.rate, command.durationMs, (atMs, correctedMs, ok) => timeline.observe(atMs, correctedMs, ok));
        return say({ type: 'timeline', result, bins: timeline.bins });
      }
    }
  };
  const pending: Promise<void>[] = [];
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as DriverCommand;
    if (command.type === 'stop') break;
    pending.push(serve(command));
  }
  await Promise.all(pending);
  caller.close();
  counters.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`service driver: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
