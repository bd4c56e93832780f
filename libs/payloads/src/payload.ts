import type { MessageShape, ValueOf } from './shape';

/**
 * Every name of one endpoint, derived from its kebab-case name so the .proto, both servers, the
 * client and the bench cases agree without being told twice. For `orders`:
 * GET /server-a/orders/:count, payloads.orders.OrdersService/GetOrders, replies `{ "orders": [...] }`.
 */
export interface PayloadNames {
  /** server-a's route below /server-a/ and the proto file's base name: `orders`. */
  route: string;
  /** `payloads.orders` */
  protoPackage: string;
  /** `OrdersService` */
  service: string;
  /** `GetOrders` */
  method: string;
  /** The request message: `GetOrdersParam { int32 count = 1; }` */
  param: string;
  /** The reply message: `Orders { repeated Order orders = 1; }` */
  reply: string;
  /** The reply's list field, in JSON and protobuf alike: `orders` */
  field: string;
}

/** One endpoint's payload: its name, the shape of one item, and the names derived from both. */
export interface Payload<M extends MessageShape = MessageShape> {
  readonly name: string;
  readonly item: M;
  readonly names: PayloadNames;
}

/** One built item of a payload. */
export type ItemOf<P extends Payload> = ValueOf<P['item']>;

/** A whole reply: the item list under the payload's field name. */
export type PayloadReply<P extends Payload = Payload> = Record<string, ItemOf<P>[]>;

/** The proto package every generated payload lives under (one sub-package each, so message names never clash). */
export const PAYLOADS_PACKAGE = 'payloads';

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

function pascal(name: string): string {
  return name
    .split('-')
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

export function payloadNames(name: string): PayloadNames {
  if (!NAME.test(name)) throw new Error(`payload name must be kebab-case (e.g. orders, order-lines), got ${JSON.stringify(name)}`);
  const type = pascal(name);
  return {
    route: name,
    protoPackage: `${PAYLOADS_PACKAGE}.${name.replace(/-/g, '_')}`,
    service: `${type}Service`,
    method: `Get${type}`,
    param: `Get${type}Param`,
    reply: type,
    field: type[0].toLowerCase() + type.slice(1),
  };
}

/** Declares a payload: `definePayload('orders', message('Order', { … }))`. */
export function definePayload<const M extends MessageShape>(name: string, item: M): Payload<M> {
  return Object.freeze({ name, item, names: Object.freeze(payloadNames(name)) });
}
