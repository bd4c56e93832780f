import { describeQuickCase } from '../quick-case';

describeQuickCase('connect-json', ['blog', 'tuned']);
