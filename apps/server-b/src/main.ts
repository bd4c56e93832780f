// server-b: the blog's gRPC API. Reads its settings, serves sample.SampleService, stops on SIGTERM.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { exitWithParent, explainListenError, grpcCodecFor, loadSettings, processSampler, stopOnSignals, warnOnMissingNodeOptions } from '@bench/config';
import { observeSampleCodec, sampleGrpcOptions } from '@bench/proto';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  exitWithParent('server-b');
  const settings = loadSettings();
  warnOnMissingNodeOptions(settings.variant, 'server-b');
  // Time protobuf encoding of every reply inside the serializer Nest calls.
  observeSampleCodec({ encoded: (_bytes, ms) => processSampler().addPhase('encode', ms) });
  const url = `${settings.host}:${settings.serverBPort}`;
  const app = await NestFactory.createMicroservice(AppModule.register(settings), {
    ...sampleGrpcOptions(url, grpcCodecFor(settings.variant)),
    logger: ['error', 'warn'],
  });
  stopOnSignals(app, 'server-b');
  try {
    await app.listen();
  } catch (error) {
    throw new Error(explainListenError(error, { variable: 'SERVER_B_PORT', port: settings.serverBPort, host: settings.host }));
  }
  console.log(`server-b (gRPC, ${settings.variant}) listening on ${url}`);
}

main().catch((error: unknown) => {
  console.error(`server-b: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
