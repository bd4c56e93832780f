import { cpuProfileRows, profiledGroups, widestPackageGap } from '../../src/analysis/cpu-profile';
import { verdict } from '../../src/analysis/verdict';
import { handMadeCell } from '../hand-made-cell';
import { profiledCells } from '../profiled-cell';

describe('CPU profiles in the analyses', () => {
  const [json, grpc] = profiledCells();

  it('gives a row per cell and process with its packages per call, (idle) left out', () => {
    const rows = cpuProfileRows([json, grpc]);
    expect(rows.map((r) => `${r.cell.transport} ${r.profile.process}`)).toEqual(['json server-a', 'json server-b', 'json client', 'grpc server-a', 'grpc server-b', 'grpc client']);
    const serverB = rows.find((r) => r.cell.transport === 'grpc' && r.profile.process === 'server-b')!;
    expect(serverB.busyPerCallMs).toBeCloseTo(13);
    expect(serverB.packages.map((p) => [p.package, Number(p.perCallMs.toFixed(3))])).toEqual([
      ['protobufjs', 10],
      ['grpc-js', 3],
    ]);
    expect(rows.every((r) => r.packages.every((p) => p.package !== '(idle)'))).toBe(true);
  });

  it('names the package whose CPU per call differs most across the set', () => {
    // protobufjs: gRPC 10 (server-b) + 5 (client) = 15 ms per call, JSON none.
    expect(widestPackageGap(grpc, json)).toEqual({ package: 'protobufjs', slowMs: 15, fastMs: 0 });
    expect(widestPackageGap(grpc, handMadeCell())).toBeNull();
  });

  it('puts the why on it when the remainder separates the transports', () => {
    const row = verdict([json, grpc]).rows[0];
    expect(row.why).toMatch(/^remainder \(framework \+ transport \+ waiting\): gRPC/);
    expect(row.why).toContain('in the profiles, protobufjs differs most: 15.0 vs 0.000 ms CPU per call');
  });

  it('leaves the why as it was without profiles', () => {
    const plain = [json, grpc].map(({ cpuProfile: _, ...cell }) => cell);
    expect(verdict(plain).rows[0].why).not.toContain('profiles');
  });

  it('groups the profiled cells of a case', () => {
    expect(profiledGroups([json, grpc, handMadeCell({ case: '②-1' })]).map((g) => g.map((c) => c.transport))).toEqual([['json', 'grpc']]);
  });
});
