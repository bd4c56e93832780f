// The entry point of every suite: its command line, then its run through the one run frame
// (suite-experiment.ts); or, across a network stage, the measuring job in the client namespace.
import { loadSecurity } from '@bench/config';
import { runTool, errorText } from '../../cli';
import { suiteArgsOf, suiteCommand, type SuitePreset } from './args';
import { countersFromParent, profilersFromParent, readJob, tellParent, type StageJob } from './stage-job';
import { profiledBy, unprofiled } from './profiling';
import { serveCpuProfiler } from '../../run';
import { runSuite } from './suite-experiment';
import type { SuiteContext, SuiteDefinition } from './suite-definition';

export { WORKSPACE_ROOT, type SuiteContext, type SuiteDefinition } from './suite-definition';

/** The measuring part in the client namespace: the suite's run with what the job file says, reporting over IPC. */
async function runJob<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>, job: StageJob<S>): Promise<void> {
  const save = (partial: unknown) => tellParent({ type: 'save', partial });
  const log = (line: string) => tellParent({ type: 'log', line });
  // --cpu-profile: this process's profiler on the socket the suite's process drives, with the servers'.
  const cpuProfile = job.cpuProfile;
  if (cpuProfile) serveCpuProfiler(cpuProfile.socket, cpuProfile.intervalUs);
  const profiled = cpuProfile
    ? profiledBy(
        (unit) => profilersFromParent('start', unit),
        (unit, calls) => profilersFromParent('stop', unit, calls),
      )
    : unprofiled;
  const context = (): SuiteContext<S> => ({
    settings: job.settings,
    preset: job.preset as SuitePreset,
    runDir: job.runDir,
    // The run's certificates from their files' paths (a file that cannot be read is this job's error, told to the suite).
    servers: { ...job.servers, security: loadSecurity(job.servers.securityEnv), stop: async () => undefined },
    path: { ...job.path, counters: countersFromParent() },
    // Suites that place their own apps on the stage (usesStage) run in the bench's process, never as a job.
    stage: null,
    security: null,
    profiled,
    profiling: null,
    extras: job.extras,
    addProvenance: () => undefined,
    log,
    save,
    progress: (line, partial) => {
      log(line);
      save(partial);
    },
  });
  try {
    tellParent({ type: 'done', results: await definition.run(context()) });
  } catch (error) {
    tellParent({ type: 'error', message: errorText(error) });
  }
  process.disconnect?.();
}

/** The entry point of a suite's main.ts: its help, its command line, its run, and exit with its code. */
export function suiteMain<S extends Record<string, number>, R>(definition: SuiteDefinition<S, R>): void {
  const job = readJob<S>();
  if (job) return void runJob(definition, job);
  runTool(suiteCommand(definition.spec), (line, argv) => runSuite(definition, suiteArgsOf(definition.spec, line), argv), { stack: true });
}
