import type { ClientGrpc } from '@nestjs/microservices';
import { firstValueFrom, type Observable } from 'rxjs';
import type { ProcessSample } from '@bench/config';
import { METRICS_SERVICE } from '@bench/proto';

interface ProcessMetricsClient {
  read(request: { resetPeak: boolean }): Observable<ProcessSample>;
}

/**
 * server-b's own reading (bench.metrics.ProcessMetrics/Read) through the Nest client's ClientGrpc: the
 * grpc transport reads it so, and so does every Nest microservice transport server-b serves beside it.
 */
export function serverBMetrics(grpc: ClientGrpc): (resetPeak: boolean) => Promise<ProcessSample> {
  return (resetPeak) => firstValueFrom(grpc.getService<ProcessMetricsClient>(METRICS_SERVICE).read({ resetPeak }));
}
