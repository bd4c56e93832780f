export { int32, double, bool, string, message, repeated, type Field, type Fields, type MessageShape, type ScalarField, type RepeatedField, type ValueOf } from './shape';
export { definePayload, payloadNames, PAYLOADS_PACKAGE, type Payload, type PayloadNames, type ItemOf, type PayloadReply } from './payload';
export { buildItem, buildItems, buildReply, buildItemsSliced, payloadJsonStream } from './build';
export { verifyPayloadReply } from './verify';
export { renderProto } from './proto';
export { PAYLOAD_PROTO_DIR, payloadProtoPath } from './paths';
export { PAYLOADS, findPayload } from './catalog';
// Endpoints added by `nx g ./tools/bench:endpoint` (one line each):
export { ORDERS, type Order } from './orders/orders.payload';
