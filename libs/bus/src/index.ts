export { BUS_CLIENT, IN_PROCESS_BROKER } from './bus.tokens';
export { CommandBus } from './command-bus';
export { InProcessBroker } from './in-process-broker';
export { InProcessClient, InProcessServer } from './in-process.transport';
export { isCommandId } from './command-headers';
export type { CommandStamp } from './command-headers';
export { kafkaClientOptions, kafkaJsConfig, kafkaServerOptions } from './kafka/kafka-options';
export { MOKAPI_MAX_VALUE_BYTES } from './kafka/bounded-serializer';
export {
  BUS_CONNECT_BACKOFF,
  busClientConnections,
  busConnections,
  connectInBackground,
} from './kafka/bus-connection';
export { CommitPacer, drainPacedCommits } from './kafka/commit-pacer';
export { BatchTopicConsumer } from './batch-consumer';
export type { ConsumedMessage } from './batch-consumer';
export { kafkaConsumerHealth } from './kafka/kafka-consumer-health';
export { headersToStrings } from './kafka/kafka-headers';
export { busHealth, BusHealth } from './bus-health';
export { ConsumerLagProbe } from './kafka/consumer-lag-probe';
export { ObservedKafkaServer } from './kafka/kafka-server';
export { PacedKafkaClient } from './kafka/kafka-client';
export { releaseConsumer, superviseConsumer } from './kafka/consumer-supervisor';
export { warnOnRequestTimeouts } from './kafka/request-timeouts';
