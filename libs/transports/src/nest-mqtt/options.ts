import { Transport } from '@nestjs/microservices';
import { BROKER_URL_ENV, type Settings } from '@bench/config';
import { brokerUrl } from '../common/broker-refusals';
import type { MicroserviceClientOptions } from '../common/microservice-transport';

/** Nest's MQTT transport options for the broker at MQTT_URL (Nest's and MQTT.js's defaults otherwise: QoS 0). */
export function mqttOptions(settings: Settings): { ok: true; options: { url: string } } | { ok: false; reason: string } {
  const url = brokerUrl(settings.microservices.brokers.mosquitto, BROKER_URL_ENV.mosquitto);
  return url.ok ? { ok: true, options: { url: url.url } } : url;
}

/** nest-mqtt's ClientProxy options: requests on the pattern's topic, replies on `<pattern>/reply`. */
export function nestMqttClientOptions(settings: Settings): MicroserviceClientOptions {
  const mqtt = mqttOptions(settings);
  return mqtt.ok ? { ok: true, options: { transport: Transport.MQTT, options: mqtt.options } } : mqtt;
}
