import type { BrokerRecord } from '../contract';

export const RABBITMQ: BrokerRecord = {
  kind: 'rabbitmq',
  name: 'RabbitMQ',
  // Its Erlang (erlang-base, …) comes as the package's dependencies, at Debian's versions.
  source: { kind: 'debian', packages: [{ name: 'rabbitmq-server', version: '3.10.8-1.1+deb12u1' }] },
  version: '3.10.8',
  transports: ['nest-rmq'],
};
