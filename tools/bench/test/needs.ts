// A test that needs something the machine may lack: the one mechanism lives in libs/testing (needs.ts) so
// that the libraries' and apps' tests skip (or fail under CI=true) the same way, e.g. a broker transport's
// test without its broker; the bench's tests import it from here as before.
export { needVerdict, describeNeeding, describeWhenGiven, itNeeding, missingHere, type Need, type NeedVerdict } from '@bench/testing';
