import { Transport, type CustomClientOptions } from '@nestjs/microservices';
import { BROKER_URL_ENV, isTuned, type Settings } from '@bench/config';
import { brokerUrl } from '../common/broker-refusals';
import type { MicroserviceClientOptions } from '../common/microservice-transport';
import { NoDelayClientMqtt } from './no-delay';

/** Nest's MQTT transport options for the broker at MQTT_URL (Nest's and MQTT.js's defaults otherwise: QoS 0). */
export function mqttOptions(settings: Settings): { ok: true; options: { url: string } } | { ok: false; reason: string } {
  const url = brokerUrl(settings.microservices.brokers.mosquitto, BROKER_URL_ENV.mosquitto);
  return url.ok ? { ok: true, options: { url: url.url } } : url;
}

/**
 * nest-mqtt's ClientProxy options: requests on the pattern's topic, replies on `<pattern>/reply`; with
 * mqtt-no-delay, Nest's ClientMqtt made as a custom class that turns Nagle off (no-delay.ts).
 */
export function nestMqttClientOptions(settings: Settings): MicroserviceClientOptions {
  const mqtt = mqttOptions(settings);
  if (!mqtt.ok) return mqtt;
  if (isTuned(settings.variant, 'mqtt-no-delay')) return { ok: true, options: { customClass: NoDelayClientMqtt as unknown as CustomClientOptions['customClass'], options: mqtt.options } };
  return { ok: true, options: { transport: Transport.MQTT, options: mqtt.options } };
}
