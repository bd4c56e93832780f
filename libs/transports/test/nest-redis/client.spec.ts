import { describeBrokerQuickCase } from '../quick-case';

describeBrokerQuickCase('nest-redis', 'redis', ['ioredis']);
