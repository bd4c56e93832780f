// The one failure type: why a cell (or a visit, a set of apps) failed, as data. A leaf of the model: the
// document's cells and the run's records (run-records.ts) both carry it.

/**
 * Why a cell failed, as data (the `error` string says the same in one sentence). Every failure path
 * of a run ends here, so a lost process, a clash or a hang costs its cells and not the run.
 */
export interface Failure {
  /**
   * start: its set of apps could not be started; died: a process of its set exited; not-answering: its
   * set stopped answering its readiness check; deadline: a call had no reply within its deadline;
   * bound: the visit ran past its time bound and was ended; call: the call's own error (a wrong reply, a refusal).
   */
  kind: 'start' | 'died' | 'not-answering' | 'deadline' | 'bound' | 'call';
  message: string;
  /** The process at fault, when one is known: server-a, server-b or client. */
  process?: string;
  pid?: number;
  /** How it ended, e.g. `exited with signal SIGKILL` or `exited with code 1`. */
  exit?: string;
  /** The last lines of its log. */
  logTail?: string[];
}
