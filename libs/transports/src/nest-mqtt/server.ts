import { ServerMqtt, type MicroserviceOptions } from '@nestjs/microservices';
import type { Settings } from '@bench/config';
import { replyingRefusals } from '../common/broker-refusals';
import { mqttOptions } from './options';

/** Nest's MQTT server, a reply the MQTT client refuses answered with its reason (common/broker-refusals.ts). */
class RefusalReplyingServerMqtt extends ServerMqtt {
  constructor(
    options: ConstructorParameters<typeof ServerMqtt>[0],
    private readonly group: string,
  ) {
    super(options);
  }

  /**
   * With a group (MICROSERVICE_GROUP), a request pattern is subscribed as a shared subscription,
   * `$share/<group>/<pattern>`: the broker gives each request to one member of the group. Requests still
   * arrive on the pattern's own topic, so Nest's handler lookup and reply topic are unchanged.
   */
  override getRequestPattern(pattern: string): string {
    return this.group === '' ? super.getRequestPattern(pattern) : `$share/${this.group}/${super.getRequestPattern(pattern)}`;
  }

  override getPublisher(...args: Parameters<ServerMqtt['getPublisher']>): ReturnType<ServerMqtt['getPublisher']> {
    return replyingRefusals(super.getPublisher(...args) as (packet: Record<string, unknown>) => unknown, 'MQTT');
  }
}

/** server-b's binding of nest-mqtt: Nest's MQTT transport on the broker at MQTT_URL, Nest's defaults; with MICROSERVICE_GROUP, shared subscriptions. */
export function nestMqttServer(settings: Settings): MicroserviceOptions {
  const mqtt = mqttOptions(settings);
  if (!mqtt.ok) throw new Error(`nest-mqtt: ${mqtt.reason}`);
  return { strategy: new RefusalReplyingServerMqtt(mqtt.options, settings.microservices.group) };
}
