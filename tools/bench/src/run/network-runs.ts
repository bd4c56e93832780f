// The run's network stages: for each network profile, the stage is built, calibrated and recorded
// before any call crosses it, and taken down after. main.ts decides what to run; this decides across what.
import { failedVisit } from './app-sets';
import type { PlannedCase, RunDocument } from '../results';
import type { Placement } from './apps';
import { checkPrerequisites, usesStage, type NetworkProfile } from '../network';
import { networkRecord, onStage, StageFailure } from './on-stage';
import type { RunnerHooks } from '../measure';

/** Refuses the run at once when a profile needs what this machine lacks (root, iptables, the delayer). */
export function checkNetworks(networks: readonly NetworkProfile[]): void {
  for (const network of networks.filter(usesStage)) {
    const why = checkPrerequisites(network);
    if (why) throw new Error(`--network ${network.name}: ${why}`);
  }
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
  const record = networkRecord(network);
  (doc.provenance.networks ??= {})[network.name] = record;
  if (!usesStage(network)) {
    save();
    return measure(undefined);
  }
  try {
    await onStage(network, record, (line) => process.stderr.write(`bench: ${line}\n`), save, measure);
  } catch (error) {
    if (!(error instanceof StageFailure)) throw error;
    // The network's visits fail with the reason, recorded like any other failure.
    process.stderr.write(`bench: ${error.message}\n`);
    for (const [index, planned] of plan.entries()) await hooks.onCaseDone(failedVisit(planned, error.failure), index, plan.length, planned);
  }
}
