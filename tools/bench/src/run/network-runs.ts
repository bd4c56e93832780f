// The run's network stages: for each network profile, the stage is built, calibrated and recorded
// before any call crosses it, and taken down after. main.ts decides what to run; this decides across what.
// A path profile (region+names+mesh) adds its parts on the stage: the names once per stage, each set
// of apps its own sidecars (as each pod has its own), checked before the set serves a call.
import { failedVisit } from './app-sets';
import { errorText } from '../cli';
import type { Visit, RunDocument } from '../model';
import type { AppPorts, Placement, SetPath } from './apps';
import { checkPrerequisites, usesStage, type Stage } from '../network/stage';
import { dialledHosts, joinPath, pathPrerequisites, startMesh, startNames, type NamesPart, type PathProfile } from '../network/path';
import { calibratedRttMs, checkedPath, networkRecord, onStage, StageFailure } from './on-stage';
import type { RunnerHooks } from '../measure';
import type { BrokerKind } from '@bench/config';
import { startRunBrokers, type RunBrokers } from './run-brokers';

/** Refuses the run at once when a profile needs what this machine lacks (root, iptables, the delayer, dnsmasq). */
export function checkNetworks(networks: readonly PathProfile[]): void {
  for (const path of networks.filter((p) => usesStage(p.network))) {
    const why = checkPrerequisites(path.network) ?? pathPrerequisites(path);
    if (why) throw new Error(`--network ${path.name}: ${why}`);
  }
}

/** Per timed call the DNS server's log needs only a moment to be read (its lines are in the pipe before the answer). */
const DNS_SETTLE_MS = 5;

/**
 * The stage as a placement for bench:all's apps, with the path's parts: each set of apps gets its
 * sidecars for its ports (slot: listeners apart from the other sets up at once) and the stage's names,
 * checked once it is up. The first set's path and check are the network's record (provenance.networks[path].path).
 */
function pathPlacement(stage: Stage, path: PathProfile, names: NamesPart | null, rttMs: number, doc: RunDocument, save: () => void): Placement {
  const log = (line: string) => process.stderr.write(`bench: ${path.name}: ${line}\n`);
  const start = async (ports: AppPorts, slot: number): Promise<SetPath> => {
    const mesh = path.features.includes('mesh') ? await startMesh(stage, ports, slot) : null;
    const active = joinPath(stage, path, ports, names, mesh);
    let entry: unknown = null;
    return {
      dial: dialledHosts(stage, path),
      check: async () => {
        await checkedPath(stage, active, rttMs, log, (checked) => {
          entry = checked;
          doc.provenance.networks![path.name].path ??= checked;
          save();
        });
      },
      counters: async () => ({ dns: names ? await names.counts(DNS_SETTLE_MS) : null, envoy: mesh ? await mesh.counters() : null }),
      record: () => entry ?? active.record(),
      stop: () => active.stop(),
    };
  };
  return { hosts: stage.hosts, wrap: (host, argv) => stage.wrap(host, argv), exposeOnHost: (address, port) => stage.exposeOnHost(address, port), delayerCpu: () => stage.delayerCpu(), tcpCounters: () => stage.tcpCounters(), path: { start } };
}

/**
 * Runs `measure` across `path`: with no stage for loopback; otherwise on a stage that calibrated
 * within tolerance, with the apps placed in its namespaces and the path's parts around them. A stage
 * that cannot start or refuses its calibration, or names that cannot be served, fail the network's
 * visits with the reason (recorded like any other failure); a set whose path check refuses fails its own.
 */
export async function acrossNetwork(
  path: PathProfile,
  plan: readonly Visit[],
  doc: RunDocument,
  hooks: RunnerHooks,
  save: () => void,
  brokers: readonly BrokerKind[],
  measure: (placement: Placement | undefined, brokers: Pick<RunBrokers, 'env' | 'meterOf'>) => Promise<void>,
): Promise<void> {
  const record = networkRecord(path.network);
  (doc.provenance.networks ??= {})[path.name] = record;
  const withBrokers = async (stage: Stage | undefined, placement: Placement | undefined) => {
    if (brokers.length === 0) return measure(placement, { env: {}, meterOf: () => undefined });
    let started: RunBrokers;
    try {
      started = await startRunBrokers(brokers, stage);
    } catch (error) {
      record.refused = `network ${path.name}: the brokers did not start: ${errorText(error)}`;
      save();
      throw new StageFailure({ kind: 'start', message: record.refused });
    }
    record.brokers = started.records;
    save();
    try {
      await measure(placement, started);
    } finally {
      await started.stop();
    }
  };
  try {
    if (!usesStage(path.network)) {
      save();
      return await withBrokers(undefined, undefined);
    }
    await onStage(path.network, record, (line) => process.stderr.write(`bench: ${line}\n`), save, { broker: brokers.length > 0 }, async (stage) => {
      if (path.features.length === 0) return withBrokers(stage, stage);
      let names: NamesPart | null;
      try {
        names = await startNames(stage, path);
      } catch (error) {
        record.refused = `path ${path.name}: the DNS server did not start: ${errorText(error)}`;
        save();
        throw new StageFailure({ kind: 'start', message: record.refused });
      }
      try {
        await withBrokers(stage, pathPlacement(stage, path, names, calibratedRttMs(record), doc, save));
      } finally {
        names?.stop();
      }
    });
  } catch (error) {
    if (!(error instanceof StageFailure)) throw error;
    // The network's visits fail with the reason, recorded like any other failure.
    process.stderr.write(`bench: ${error.message}\n`);
    for (const [index, planned] of plan.entries()) await hooks.onVisitDone(failedVisit(planned, error.failure), index, plan.length, planned);
  }
}
