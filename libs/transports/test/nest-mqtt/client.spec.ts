import { describeBrokerQuickCase } from '../quick-case';

describeBrokerQuickCase('nest-mqtt', 'mqtt', ['mqtt']);
