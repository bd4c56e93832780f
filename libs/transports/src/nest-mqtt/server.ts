import { ServerMqtt, type MicroserviceOptions } from '@nestjs/microservices';
import { isTuned, type Settings } from '@bench/config';
import { replyingRefusals } from '../common/broker-refusals';
import { withoutNagle } from './no-delay';
import { refusingOversized } from './packet-limit';
import { mqttOptions } from './options';

/**
 * Nest's MQTT server, a reply the MQTT client refuses answered with its reason (common/broker-refusals.ts),
 * one no MQTT packet can carry refused before it is written (packet-limit.ts), and with mqtt-no-delay
 * Nagle's algorithm off on its connection.
 */
class RefusalReplyingServerMqtt extends ServerMqtt {
  constructor(
    options: ConstructorParameters<typeof ServerMqtt>[0],
    private readonly noDelay: boolean,
    private readonly group: string,
  ) {
    super(options);
  }

  override async createMqttClient(): ReturnType<ServerMqtt['createMqttClient']> {
    const client = refusingOversized(await super.createMqttClient());
    return this.noDelay ? withoutNagle(client) : client;
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

/** server-b's binding of nest-mqtt: Nest's MQTT transport on the broker at MQTT_URL, Nest's defaults (or the variant's mqtt-no-delay); with MICROSERVICE_GROUP, shared subscriptions. */
export function nestMqttServer(settings: Settings): MicroserviceOptions {
  const mqtt = mqttOptions(settings);
  if (!mqtt.ok) throw new Error(`nest-mqtt: ${mqtt.reason}`);
  return { strategy: new RefusalReplyingServerMqtt(mqtt.options, isTuned(settings.variant, 'mqtt-no-delay'), settings.microservices.group) };
}
