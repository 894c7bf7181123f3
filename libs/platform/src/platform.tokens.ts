export const DATABASE_HOST = Symbol('DATABASE_HOST');
export const IN_PROCESS_BROKER = Symbol('IN_PROCESS_BROKER');
