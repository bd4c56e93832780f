import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DEFAULT_SETTINGS, type ControlAccess, type Settings } from '@bench/config';
import { startFakeGrpcServer, startFakeJsonServer, type FakeServer } from '@bench/testing';
import { AppModule } from '../src/app.module';

/** The client app against protocol-level stand-ins for server-a and server-b on free loopback ports. */
export interface ClientAgainstFakes {
  serverA: FakeServer;
  serverB: FakeServer;
  client: INestApplication;
  close(): Promise<void>;
}

/** Starts both stand-ins and the client app with `settings` over the defaults, pointed at them (and `access`: default open). */
export async function startClientAgainstFakes(settings: Partial<Settings>, access?: ControlAccess): Promise<ClientAgainstFakes> {
  const serverA = await startFakeJsonServer();
  const serverB = await startFakeGrpcServer();
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.register({ ...DEFAULT_SETTINGS, serverAUrl: serverA.url, serverBUrl: serverB.url, ...settings }, access)],
  }).compile();
  const client = moduleRef.createNestApplication({ logger: false });
  await client.init();
  return {
    serverA,
    serverB,
    client,
    close: async () => {
      await client.close();
      await serverA.close();
      await serverB.close();
    },
  };
}
