import { buildRow } from '@bench/samples';
import { samplesReplyJsonSchema } from './json-schema';

describe('samplesReplyJsonSchema', () => {
  it('is generated from sample.Samples: an array of rows with the fields the servers build, rowNum an integer, the columns strings', () => {
    const columns = Object.fromEntries(Object.keys(buildRow(0)).map((field) => [field, { type: field === 'rowNum' ? 'integer' : 'string' }]));
    expect(samplesReplyJsonSchema()).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        samples: { type: 'array', items: { type: 'object', additionalProperties: false, properties: columns } },
      },
    });
  });
});
