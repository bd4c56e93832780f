import type { HttpService } from '@nestjs/axios';
import { firstValueFrom } from 'rxjs';
import type { ProcessSample, Settings } from '@bench/config';

/** server-a's own reading (GET /metrics) through the Nest client's axios: every transport to server-a reads it so. */
export function serverAMetrics(http: HttpService, settings: Settings): (resetPeak: boolean) => Promise<ProcessSample> {
  return async (resetPeak) => (await firstValueFrom(http.get<ProcessSample>(`${settings.serverAUrl}/metrics?resetPeak=${resetPeak}`))).data;
}
