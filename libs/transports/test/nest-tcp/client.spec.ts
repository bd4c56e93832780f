import { describeQuickCase } from '../quick-case';

describeQuickCase('nest-tcp', ['blog', 'tuned']);
