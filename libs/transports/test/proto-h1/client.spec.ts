import { describeQuickCase } from '../quick-case';

describeQuickCase('proto-h1', ['blog', 'tuned']);
