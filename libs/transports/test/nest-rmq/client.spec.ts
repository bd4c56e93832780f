import { describeBrokerQuickCase } from '../quick-case';

describeBrokerQuickCase('nest-rmq', 'rabbitmq', ['amqplib', 'amqp-connection-manager']);
