/** The ClientProxy (Kafka or in-process) that a process uses to send commands and events. */
export const BUS_CLIENT = Symbol('BUS_CLIENT');

/** The in-process broker (standalone mode), or null when the bus is Kafka. */
export const IN_PROCESS_BROKER = Symbol('IN_PROCESS_BROKER');
