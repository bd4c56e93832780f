// The run's network stages: for each network profile, the stage is built, calibrated and recorded
// before any call crosses it, and taken down after. main.ts decides what to run; this decides across what.
import { failedVisit } from './app-sets';
import { errorText } from '../cli';
import { STAGE_BOUND_MS, withinBound } from '../plan';
import { describeCalibration, type Failure, type PlannedCase, type RunDocument } from '../results';
import type { Placement } from './apps';
import { checkPrerequisites, delayerCpuBetween, startStage, usesStage, type Calibration, type DelayerCpu, type NetworkProfile, type Stage } from '../network';
import type { RunnerHooks } from '../measure';

/** Refuses the run at once when a profile needs what this machine lacks (root, iptables, the delayer). */
export function checkNetworks(networks: readonly NetworkProfile[]): void {
  for (const network of networks.filter(usesStage)) {
    const why = checkPrerequisites(network);
    if (why) throw new Error(`--network ${network.name}: ${why}`);
  }
}

/** What results.json keeps of one network of the run (provenance.networks[name]). */
export interface NetworkRecord {
  profile: NetworkProfile;
  /** The stage's own calibration, or null for loopback (no stage). */
  calibration: Calibration | null;
  /** The delayer's CPU over the measured part of the run (after calibration), when the profile delays. */
  delayerCpu: DelayerCpu | null;
  /** Why nothing was measured across it, when so. */
  refused: string | null;
}

/**
 * Runs `measure` across `network`: with no stage for loopback; otherwise on a stage that calibrated
 * within tolerance, with the apps placed in its namespaces. A stage that cannot start or refuses its
 * calibration fails the network's visits with the reason (recorded like any other failure).
 */
export async function acrossNetwork(
  network: NetworkProfile,
  plan: readonly PlannedCase[],
  doc: RunDocument,
  hooks: RunnerHooks,
  save: () => void,
  measure: (placement: Placement | undefined) => Promise<void>,
): Promise<void> {
  const records = ((doc.provenance.networks as Record<string, NetworkRecord> | undefined) ??= {});
  const record: NetworkRecord = { profile: network, calibration: null, delayerCpu: null, refused: null };
  records[network.name] = record;
  if (!usesStage(network)) {
    save();
    return measure(undefined);
  }
  const failAll = async (failure: Failure) => {
    record.refused = failure.message;
    process.stderr.write(`bench: ${failure.message}\n`);
    for (const [index, planned] of plan.entries()) await hooks.onCaseDone(failedVisit(planned, failure), index, plan.length, planned);
  };
  let stage: Stage;
  const started = startStage(network, { runId: `${process.pid}` });
  try {
    process.stderr.write(`bench: building the ${network.name} network stage …\n`);
    stage = await withinBound(started, STAGE_BOUND_MS, 'building the stage');
  } catch (error) {
    void started.then((late) => late.stop(), () => undefined); // a stage that came up after its bound is taken down
    return failAll({ kind: 'start', message: `network ${network.name}: the stage did not start: ${errorText(error)}` });
  }
  try {
    let calibration: Calibration;
    try {
      calibration = await withinBound(stage.calibrate(), STAGE_BOUND_MS, 'calibrating the stage');
    } catch (error) {
      return await failAll({ kind: 'start', message: `network ${network.name}: calibration failed: ${errorText(error)}` });
    }
    record.calibration = calibration;
    save();
    process.stderr.write(`bench: ${network.name}: ${describeCalibration(calibration)}\n`);
    if (calibration.verdict === 'refuse') {
      return await failAll({ kind: 'start', message: `network ${network.name}: calibration refused: ${calibration.reasons.join('; ')}` });
    }
    const before = await stage.delayerCpu();
    await measure(stage);
    const after = await stage.delayerCpu();
    record.delayerCpu = before && after ? delayerCpuBetween(before, after) : after;
    save();
  } finally {
    await stage.stop();
  }
}
