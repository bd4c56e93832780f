import { describeQuickCase } from '../quick-case';

describeQuickCase('connect-proto', ['blog', 'tuned']);
