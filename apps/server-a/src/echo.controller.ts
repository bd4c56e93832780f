import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { echoCodec, PROTOBUF_MEDIA_TYPE } from '@bench/proto';
import { ECHO_MAX_CONTENT } from '@bench/samples';
import { orBadRequest, parseStringField } from '@bench/validation';
import { decodeProtobufBody, requireMediaType, sendProtobuf, type RawReply } from './body-formats';

/**
 * Experiment §4's REST echo over HTTP/1.1: the request's `content`, unchanged, in the body format it
 * came in. The protobuf route uses the very serializers of echo.DataManager/UnaryTest.
 */
@Controller('echo')
export class EchoController {
  @Post('json')
  @HttpCode(200)
  json(@Headers('content-type') type: string | undefined, @Body() body: unknown): { content: string } {
    requireMediaType(type, 'application/json');
    return { content: content((body as { content?: unknown } | undefined)?.content) };
  }

  @Post('protobuf')
  protobuf(@Headers('content-type') type: string | undefined, @Body() body: unknown, @Res() reply: RawReply): void {
    requireMediaType(type, PROTOBUF_MEDIA_TYPE);
    const codec = echoCodec();
    const request = decodeProtobufBody(body, codec.requestDeserialize, 'RequestMessage');
    sendProtobuf(reply, codec.responseSerialize({ content: content(request.content) }));
  }
}

function content(raw: unknown): string {
  return orBadRequest(parseStringField('content', raw, { maxLength: ECHO_MAX_CONTENT }));
}
