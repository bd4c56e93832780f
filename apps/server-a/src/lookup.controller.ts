import { Controller, Get, Param, Res } from '@nestjs/common';
import { lookupCodec } from '@bench/proto';
import { USER_ID_RANGE } from '@bench/samples';
import { orBadRequest, parseIntField } from '@bench/validation';
import { sendProtobuf, type RawReply } from './body-formats';

/** Experiment §2's trivial call over HTTP/1.1: return the id asked for, as JSON or as a UserReply. */
@Controller('lookup')
export class LookupController {
  @Get('json/:id')
  json(@Param('id') rawId: string): { id: number } {
    return { id: orBadRequest(parseIntField('id', rawId, USER_ID_RANGE)) };
  }

  @Get('protobuf/:id')
  protobuf(@Param('id') rawId: string, @Res() reply: RawReply): void {
    const id = orBadRequest(parseIntField('id', rawId, USER_ID_RANGE));
    sendProtobuf(reply, lookupCodec().responseSerialize({ id }));
  }
}
