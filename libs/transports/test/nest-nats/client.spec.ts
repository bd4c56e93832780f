import { describeBrokerQuickCase } from '../quick-case';

describeBrokerQuickCase('nest-nats', 'nats', ['@nats-io/transport-node']);
