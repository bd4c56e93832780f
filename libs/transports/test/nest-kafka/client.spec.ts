import { describeBrokerQuickCase } from '../quick-case';

describeBrokerQuickCase('nest-kafka', 'kafka', ['kafkajs']);
