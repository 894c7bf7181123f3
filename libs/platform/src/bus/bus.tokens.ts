/** The ClientProxy (Kafka or in-process) that a process uses to send commands and events. */
export const BUS_CLIENT = Symbol('BUS_CLIENT');
