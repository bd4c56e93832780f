import type { Settings } from '@bench/config';
import type { MicroserviceClientOptions } from './microservice-transport';

/**
 * What each broker transport would need to run over TLS to its broker, which the bench does not build yet:
 * the broker started with a TLS listener of the run's certificates (its CA, a server certificate naming the
 * broker's address; a client certificate verified under mtls), and both Nest ends dialling it with the CA.
 */
export const BROKER_TLS_MISSING: Readonly<Record<string, string>> = {
  'nest-redis': "redis-server's tls-port with tls-cert-file, tls-key-file and tls-ca-cert-file (tls-auth-clients under mtls), and ioredis's tls options in Nest's Redis client and server",
  'nest-nats': "nats-server's tls block (cert_file, key_file, ca_file; verify under mtls), and the tls options of Nest's NATS client and server",
  'nest-rmq': "RabbitMQ's listeners.ssl with ssl_options.certfile, keyfile and cacertfile (fail_if_no_peer_cert under mtls), and amqps:// URLs with the CA for amqplib",
  'nest-mqtt': "a Mosquitto listener with certfile, keyfile and cafile (require_certificate under mtls), and mqtts:// URLs with the CA for MQTT.js",
  'nest-kafka': "a Kafka SSL listener with a keystore and truststore of the run's certificates (ssl.client.auth=required under mtls), and KafkaJS's ssl options in Nest's Kafka client and server",
};

/**
 * A broker transport's client options, or under --security tls/mtls its refusal: the brokers run in plaintext
 * only, and a transport never dials its broker in the clear when the run asked for TLS. The cell fails with
 * the reason, naming what TLS to that broker would take.
 */
export function plaintextToBroker(name: string, settings: Settings, options: MicroserviceClientOptions): MicroserviceClientOptions {
  if (settings.security.mode === 'plain') return options;
  const missing = BROKER_TLS_MISSING[name] ?? 'a TLS listener on its broker';
  return { ok: false, reason: `runs in plaintext only to its broker (security ${settings.security.mode} asked): TLS to it needs ${missing}, not built yet` };
}
