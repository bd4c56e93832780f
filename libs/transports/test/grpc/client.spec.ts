import { describeQuickCase } from '../quick-case';

describeQuickCase('grpc', ['blog', 'tuned', 'bare']);
