export * from './clock';
export { RealClock } from './real';
export { VirtualClock } from './virtual';
export { Quiescence } from './quiescence';
