// What a suite is to the run frame: its options, whether it needs the blog's servers or its own apps on
// the stage, its plan, its run and its renders; and what its run sees (SuiteContext), the same in the
// bench's process and, across a stage, in the job in the client namespace (stage-job.ts).
import * as path from 'node:path';
import type { SuiteArgs, SuiteOptionsSpec, SuitePreset } from './args';
import type { SuiteDocument } from './document';
import type { SuiteServers } from './servers';
import type { Stage } from '../../network/stage';
import type { PathProfile } from '../../network/path';
import type { PathContext } from './stage-job';
import type { StartOptions } from '../../run';
import type { ServerIdentity } from '../../security';
import type { Profiled, SuiteProfiling } from './profiling';

/** The run's security for a suite that starts its own servers (usesStage): a certificate set from the run's CA naming `identity` (undefined: plain). */
export type SuiteSecurity = (identity: ServerIdentity) => StartOptions['security'];

export const WORKSPACE_ROOT = path.resolve(__dirname, '../../../../..');

export interface SuiteContext<S> {
  settings: S;
  preset: SuitePreset;
  runDir: string;
  /** null for suites that need no network. */
  servers: SuiteServers | null;
  /** The network stage the run is on (null on loopback), for suites that place their own apps on it (usesStage). */
  stage: Stage | null;
  /** The values of the suite's extraOptions, by flag. */
  extras: Record<string, unknown>;
  /** Records more provenance (what the suite built: replicas, rules) in results.json. */
  addProvenance(entries: Record<string, unknown>): void;
  /**
   * Under --security tls|mtls, for a suite that starts its own servers (securesOwnApps): the run's CA
   * and a server certificate naming what its clients dial, the files removed at the end; null: plain.
   */
  security: SuiteSecurity | null;
  /** The path across a network stage (the calls are then made from its client namespace); null on loopback. */
  path: PathContext | null;
  /**
   * Runs the measured part of one unit (what the suite's results are keyed by) under --cpu-profile's
   * profilers, started just before it and stopped just after; without --cpu-profile it just runs it.
   * Only the measured part: never a warm-up or a set-up.
   */
  profiled: Profiled;
  /** --cpu-profile, for a suite that starts its own apps (usesStage): their profilers' sockets; null without it, or in the stage's job. */
  profiling: SuiteProfiling | null;
  /** One line of progress on stderr. */
  log(line: string): void;
  /** Rewrites results.json (atomically, marked incomplete) with what has been measured so far. */
  save(partial: unknown): void;
  /** Both: a line of progress, then results.json with what has been measured so far. */
  progress(line: string, partial: unknown): void;
}

export interface SuiteDefinition<S extends Record<string, number>, R> {
  spec: SuiteOptionsSpec<S>;
  needsServers: boolean;
  /** The suite starts its own apps on the network stage (context.stage) rather than the blog's servers. */
  usesStage?: boolean;
  /** Its own apps listen with TLS under --security tls|mtls (context.security), and its callers verify them. */
  securesOwnApps?: boolean;
  /**
   * Nest's microservice transports its calls go through (nest-tcp, nest-redis, …), from its extra options.
   * A suite on the blog's servers (needsServers) gets them served: the frame starts the brokers they go
   * through (run/run-brokers.ts) and server-b connects them (SuiteServers.nestEnv: what a caller needs);
   * a suite with its own apps (usesStage) starts its brokers itself. Across a stage, a brokered one gets
   * the stage's broker namespace (stage.broker), where the brokers start.
   */
  nestTransports?(extras: Record<string, unknown>): readonly string[];
  /** Why the options cannot run (a usage error: exit 2), or null; checked before anything starts. */
  checkArgs?(args: SuiteArgs<S>, networks: readonly PathProfile['network'][]): string | null;
  /** The data records this run uses, recorded in results.json as `plan`. */
  plan(settings: S): Record<string, unknown>;
  run(context: SuiteContext<S>): Promise<R>;
  /** Why the measured results fail the suite's own check (exit 1 once everything is written), or null. */
  failure?(results: R): string | null;
  markdown(doc: SuiteDocument<S, R>): string;
  html(doc: SuiteDocument<S, R>): string;
  /** More files written at the end beside results.md (bench:service's faults as CSV). */
  files?: readonly { file: string; render(doc: SuiteDocument<S, R>): string }[];
}
