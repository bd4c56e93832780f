import { ClientMqtt } from '@nestjs/microservices';

/** What MQTT.js's client is to this file: an event emitter whose `stream` is the socket of its current connection. */
interface MqttConnection {
  stream?: { setNoDelay?: (noDelay: boolean) => unknown };
  on(event: 'connect', listener: () => void): unknown;
}

/**
 * Turns Nagle's algorithm off on each connection MQTT.js makes for `client` (tuning mqtt-no-delay): MQTT.js
 * has no option for it, and builds a new socket on every reconnect, so it is set again at each CONNACK.
 */
export function withoutNagle<C>(client: C): C {
  const connection = client as unknown as MqttConnection;
  const apply = () => connection.stream?.setNoDelay?.(true);
  apply();
  connection.on('connect', apply);
  return client;
}

/** Nest's MQTT client with mqtt-no-delay: its own client, Nagle off (ClientProxyFactory's customClass). */
export class NoDelayClientMqtt extends ClientMqtt {
  override createClient(): ReturnType<ClientMqtt['createClient']> {
    return withoutNagle(super.createClient());
  }
}
