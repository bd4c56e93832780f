// whenProcessEnds: what the bench started outside itself comes down when it exits or is signalled, and a
// signal nobody else handles still ends the process the way it would have.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const MODULE = path.resolve(__dirname, '../../dist/cli/process-end.js');

/** A child that hooks a stop (which unhooks itself, as the owners do) writing "stopped", then does `then`; its stdout and how it ended. */
function child(then: string) {
  const script = `const { whenProcessEnds } = require(${JSON.stringify(MODULE)});
let calls = 0;
const unhook = whenProcessEnds(() => { unhook(); calls++; process.stdout.write('stopped ' + String(calls) + '\\n'); });
${then}`;
  return spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
}

describe('whenProcessEnds', () => {
  it('stops once at exit', () => {
    const result = child('setTimeout(() => {}, 10);');
    expect(result.stdout).toBe('stopped 1\n');
    expect(result.status).toBe(0);
  });

  it('stops on SIGTERM and lets the signal end the process', () => {
    const result = child("setInterval(() => {}, 1000); process.kill(process.pid, 'SIGTERM');");
    expect(result.stdout).toBe('stopped 1\n');
    expect(result.signal).toBe('SIGTERM');
  });

  it('leaves the process alone when another handler takes the signal', () => {
    const result = child("process.on('SIGINT', () => { process.stdout.write('handled\\n'); process.exit(3); }); process.kill(process.pid, 'SIGINT'); setInterval(() => {}, 1000);");
    expect(result.stdout).toContain('stopped 1\n');
    expect(result.stdout).toContain('handled\n');
    expect(result.status).toBe(3);
  });

  it('runs nothing once unhooked', () => {
    const result = child('unhook();');
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('serves a dozen owners with one listener per signal, each stopped once', () => {
    const result = child(`const more = Array.from({ length: 12 }, (_, i) => { const off = whenProcessEnds(() => { off(); process.stdout.write('owner ' + i + '\\n'); }); return off; });
process.on('warning', (warning) => process.stdout.write(warning.name + '\\n'));
process.stdout.write('listeners ' + process.listenerCount('SIGINT') + '\\n');
more[3]();
setInterval(() => {}, 1000); setTimeout(() => process.kill(process.pid, 'SIGTERM'), 20);`);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('listeners 1');
    expect(lines).not.toContain('MaxListenersExceededWarning');
    expect(lines.filter((line) => line.startsWith('owner '))).toHaveLength(11);
    expect(lines).not.toContain('owner 3');
    expect(lines.filter((line) => line === 'stopped 1')).toHaveLength(1);
    expect(result.signal).toBe('SIGTERM');
  });
});

