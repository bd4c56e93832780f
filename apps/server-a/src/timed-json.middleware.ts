import type { NextFunction, Request, Response } from 'express';
import { processSampler } from '@bench/config';

/**
 * Times JSON serialization of every reply. It replaces Express's res.json with the same two steps
 * (JSON.stringify, then res.send with the JSON content type; no replacer or spaces are configured),
 * so the work is unchanged and only a timer is added around the stringify.
 */
export function timedJson(_req: Request, res: Response, next: NextFunction): void {
  res.json = function json(this: Response, body: unknown) {
    const started = performance.now();
    const text = JSON.stringify(body);
    processSampler().addPhase('encode', performance.now() - started);
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
    return this.send(text);
  };
  next();
}
