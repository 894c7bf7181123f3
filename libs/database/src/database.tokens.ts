export const DATABASE_HOST = Symbol('DATABASE_HOST');
