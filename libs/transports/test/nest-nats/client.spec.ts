import { describeBrokerQuickCase } from '../quick-case';

// At its defaults a NATS server refuses a message over max_payload, 1 MiB: ①-2's reply (2.4 MB) fails with NATS's reason (@nats-io/transport-node: "'payload' max_payload size exceeded").
describeBrokerQuickCase('nest-nats', 'nats', ['@nats-io/transport-node'], { refuses: { overBytes: 1_048_576, reason: /NATS refused the reply: .*max_payload/ } });
