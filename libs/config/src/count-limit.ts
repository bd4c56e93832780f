/** A count limit as data: its value and why it is that value (docs/reliability.md). */
export interface CountLimit {
  count: number;
  why: string;
}
