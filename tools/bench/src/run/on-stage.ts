// A network stage for the time of one measurement, the same for bench:all and the suites: built and
// calibrated within their bounds, recorded in the run's provenance.networks before any call crosses
// it, its delayer's CPU read around the measurement, and taken down however that ends.
import { errorText } from '../cli';
import { STAGE_BOUND_MS, withinBound } from '../plan';
import { describeCalibration, type Failure, type NetworkRecord } from '../model';
import { delayerCpuBetween, startStage, type Calibration, type NetworkProfile, type Stage } from '../network/stage';
import { checkPath, type ActivePath, type PathCheck, type PathRecord } from '../network/path';

/** Why nothing can be measured across a network: its stage did not start, did not calibrate, or refused. */
export class StageFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/** The record of a network before anything ran across it (results' provenance.networks[name]). */
export function networkRecord(network: NetworkProfile): NetworkRecord {
  return { profile: network, calibration: null, delayerCpu: null, refused: null };
}

/**
 * Runs `use` on `network`'s stage once it has calibrated within tolerance, writing into `record` what the
 * calibration achieved and the delayer's CPU over `use` (`save` after each). A stage that cannot start
 * or calibrate, or refuses, is recorded as refused and thrown as a StageFailure.
 */
export async function onStage<T>(network: NetworkProfile, record: NetworkRecord, log: (line: string) => void, save: () => void, use: (stage: Stage) => Promise<T>): Promise<T> {
  const refuse = (message: string): never => {
    record.refused = message;
    save();
    throw new StageFailure({ kind: 'start', message });
  };
  let stage: Stage;
  const started = startStage(network, { runId: `${process.pid}` });
  try {
    log(`building the ${network.name} network stage …`);
    stage = await withinBound(started, STAGE_BOUND_MS, 'building the stage');
  } catch (error) {
    void started.then((late) => late.stop(), () => undefined); // a stage that came up after its bound is taken down
    return refuse(`network ${network.name}: the stage did not start: ${errorText(error)}`);
  }
  try {
    let calibration: Calibration;
    try {
      calibration = await withinBound(stage.calibrate(), STAGE_BOUND_MS, 'calibrating the stage');
    } catch (error) {
      return refuse(`network ${network.name}: calibration failed: ${errorText(error)}`);
    }
    record.calibration = calibration;
    save();
    log(`${network.name}: ${describeCalibration(calibration)}`);
    if (calibration.verdict === 'refuse') return refuse(`network ${network.name}: calibration refused: ${calibration.reasons.join('; ')}`);
    const before = await stage.delayerCpu();
    const result = await use(stage);
    const after = await stage.delayerCpu();
    record.delayerCpu = before && after ? delayerCpuBetween(before, after) : after;
    save();
    return result;
  } finally {
    await stage.stop();
  }
}

/** One line on a path's check: its verdict, the lookup's and the sidecars' times against what was expected. */
export function describePathCheck(check: PathCheck): string {
  const lookup = check.lookup ? `; a lookup ${check.lookup.medianMs} ms (expected ${check.lookup.expectedMs})` : '';
  const mesh = check.meshRequest ? `; a request through the sidecars ${check.meshRequest.medianMs} ms (one round trip ${check.meshRequest.expectedMs} + the sidecars' ${check.meshRequest.sidecarsMs}; ${check.meshRequest.upstreamConnections} new upstream connection(s))` : '';
  return `path check: ${check.verdict}${lookup}${mesh}`;
}

/**
 * Checks a path built on `stage` (network/path/path-check.ts) against the stage's calibrated RTT, the same for
 * bench:all (each set of apps) and the suites: `record` gets the path and its check before anything is
 * measured across it; a refused path throws, with the reasons.
 */
export async function checkedPath(stage: Stage, path: ActivePath, rttMs: number, log: (line: string) => void, record: (entry: PathEntry) => void): Promise<PathCheck> {
  const check = await checkPath(stage, path, rttMs);
  record({ ...path.record(), check });
  log(describePathCheck(check));
  if (check.verdict === 'refuse') throw new Error(`path check refused: ${check.reasons.join('; ')}`);
  return check;
}

/** A path as results.json keeps it (provenance.networks[name].path): its parts as built, and its check. */
export type PathEntry = PathRecord & { check: PathCheck };

/** The stage's calibrated RTT (TCP connect median), which a path's check is judged against. */
export function calibratedRttMs(record: NetworkRecord): number {
  return record.calibration!.achieved.tcpConnectRttMs.median;
}
