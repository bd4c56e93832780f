import { describeQuickCase } from '../quick-case';

describeQuickCase('json', ['blog', 'tuned', 'bare']);
