export * from './envelope';
export * from './decimal';
export * from './validation';
export * from './input-limits';
export * from './reply';
export * from './formats';
export * from './address.dto';
export * from './page.dto';
