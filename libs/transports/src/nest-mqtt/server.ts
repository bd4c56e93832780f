import { ServerMqtt, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { replyingRefusals } from '../common/broker-refusals';
import { mqttOptions } from './options';

/** Nest's MQTT server, a reply the MQTT client refuses answered with its reason (common/broker-refusals.ts). */
class RefusalReplyingServerMqtt extends ServerMqtt {
  override getPublisher(...args: Parameters<ServerMqtt['getPublisher']>): ReturnType<ServerMqtt['getPublisher']> {
    return replyingRefusals(super.getPublisher(...args) as (packet: Record<string, unknown>) => unknown, 'MQTT');
  }
}

/** server-b's binding of nest-mqtt: Nest's MQTT transport on the broker at MQTT_URL, Nest's defaults. */
export function nestMqttServer(settings: Settings): MicroserviceOptions {
  const mqtt = mqttOptions(settings);
  if (!mqtt.ok) throw new Error(`nest-mqtt: ${mqtt.reason}`);
  return { strategy: new RefusalReplyingServerMqtt(mqtt.options) };
}
