import { describeQuickCase } from '../quick-case';

describeQuickCase('json-h2', ['blog', 'tuned']);
