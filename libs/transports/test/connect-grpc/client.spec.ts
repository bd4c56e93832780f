import { describeQuickCase } from '../quick-case';

describeQuickCase('connect-grpc', ['blog', 'tuned']);
