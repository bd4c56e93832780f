import { renderBreakdown } from '../../src/export/breakdown';
import { phaseBreakdown } from '../../src/model/results';
import { handMadeCell } from '../hand-made-cell';

describe('renderBreakdown', () => {
  it("gives each server phase its share of the call and, where the server reports its pauses, the GC inside it", () => {
    const withGc = handMadeCell({ transport: 'grpc', phases: phaseBreakdown([40, 50, 60], { serverBuildMs: 2, serverEncodeMs: 30, clientDecodeMs: 10, serverBuildGcMs: 0, serverEncodeGcMs: 14.2 }) });
    const goServer = handMadeCell({ variant: 'go', phases: phaseBreakdown([40, 50, 60], { serverBuildMs: 2, serverEncodeMs: 30, clientDecodeMs: 10, serverBuildGcMs: null, serverEncodeGcMs: null }) });
    const [, , gc, go] = renderBreakdown([withGc, goServer]).split('\n');
    expect(gc).toBe('| blog | ①-2 | grpc | 50.0 | 2.000 (4%; GC 0.000) | 30.0 (60%; GC 14.2) | 10.0 (20%) | 8.000 (16%) |');
    expect(go).toBe('| go | ①-2 | json | 50.0 | 2.000 (4%) | 30.0 (60%) | 10.0 (20%) | 8.000 (16%) |');
  });
});
