import {
  DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Provider,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { BUS_CLIENT } from '@consign/bus';
import { AppConfig } from '@consign/config';
import { DATABASE_HOST, DatabaseHost, ServiceDatabaseOptions } from '@consign/database';
import { Outbox } from './outbox';
import { Inbox } from './inbox';
import { OutboxEventEntity } from './outbox-event.entity';
import { InboxMessageEntity } from './inbox-message.entity';
import { DeadLetterEntity } from './dead-letter.entity';
import {
  AddDeadLetterRawValue1764000000010,
  CreateMessaging1764000000000,
} from './messaging.migration';
import { CreateCommandRecord1764000001000 } from './command-record.migration';
import { AddOutboxTraceContext1764000001600 } from './outbox-trace-context.migration';
import { CommandLedger, slowCommandFault } from './command-ledger';
import { MessagingRetention } from './messaging-retention';
import { AddMessagingRetention1764000001700 } from './messaging-retention.migration';

export interface ServiceDatabase {
  module: DynamicModule;
  /** Injection token of the service's DataSource. */
  dataSource: symbol;
  /** The resolved options, e.g. for migrating a test template database. */
  options: ServiceDatabaseOptions;
  /** Injection token of the service's Outbox. */
  outbox: symbol;
  /** Injection token of the service's Inbox. */
  inbox: symbol;
  /** Injection token of the service's CommandLedger (the command ids it carried out). */
  commands: symbol;
}

/**
 * A service's own database: a DataSource in its own schema (with the outbox, inbox, dead-letter
 * and command-record tables), its migrations run at start, and its outbox relay, command-record
 * sweeper and outbox and inbox retention sweep (MessagingRetention) started and stopped with the
 * application.
 */
export interface ServiceDatabaseDefinition extends ServiceDatabaseOptions {
  /** Whether the service publishes or consumes events and records commands (outbox, inbox, dead letters, command ledger). */
  withMessaging?: boolean;
}

/** The full DataSource options of a service: its own entities and migrations plus messaging's. */
export function resolveServiceDatabase(
  definition: ServiceDatabaseDefinition,
): ServiceDatabaseOptions {
  const messaging = definition.withMessaging ?? true;
  return {
    name: definition.name,
    schema: definition.schema,
    entities: [
      ...toArray(definition.entities),
      ...(messaging ? [OutboxEventEntity, InboxMessageEntity, DeadLetterEntity] : []),
    ],
    migrations: [
      ...(messaging
        ? [
            CreateMessaging1764000000000,
            AddDeadLetterRawValue1764000000010,
            CreateCommandRecord1764000001000,
            AddOutboxTraceContext1764000001600,
            AddMessagingRetention1764000001700,
          ]
        : []),
      ...toArray(definition.migrations),
    ],
  };
}

export function serviceDatabase(definition: ServiceDatabaseDefinition): ServiceDatabase {
  const options = resolveServiceDatabase(definition);
  const dataSourceToken = Symbol(`${options.name}:DataSource`);
  const outboxToken = Symbol(`${options.name}:Outbox`);
  const inboxToken = Symbol(`${options.name}:Inbox`);
  const commandsToken = Symbol(`${options.name}:CommandLedger`);
  const messaging = definition.withMessaging ?? true;

  @Injectable()
  class RelayLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
    private readonly retention: MessagingRetention;
    constructor(
      @Inject(outboxToken) private readonly outbox: Outbox,
      @Inject(commandsToken) private readonly commands: CommandLedger,
      @Inject(dataSourceToken) dataSource: DataSource,
    ) {
      this.retention = new MessagingRetention(dataSource, options.schema);
    }
    onApplicationBootstrap(): void {
      if (!messaging) return;
      this.outbox.start();
      this.commands.start();
      this.retention.start();
    }
    async onApplicationShutdown(): Promise<void> {
      if (!messaging) return;
      this.retention.stop();
      this.commands.stop();
      await this.outbox.stop();
      new Logger(`Outbox:${options.schema}`).log('relay flushed and stopped');
    }
  }

  const providers: Provider[] = [
    {
      provide: dataSourceToken,
      inject: [DATABASE_HOST],
      useFactory: (host: DatabaseHost) => host.openServiceDataSource(options),
    },
    {
      provide: outboxToken,
      inject: [dataSourceToken, BUS_CLIENT, DATABASE_HOST],
      useFactory: (dataSource: DataSource, client: ClientProxy, host: DatabaseHost) =>
        new Outbox(dataSource, client, options.schema, { soleWriter: host.exclusive }),
    },
    {
      provide: inboxToken,
      inject: [dataSourceToken, AppConfig],
      // With a Kafka broker, dead letters also go to `<topic>.dlt` (relayed by the outbox).
      useFactory: (dataSource: DataSource, config: AppConfig) =>
        new Inbox(dataSource, options.schema, { deadLetterTopics: Boolean(config.KAFKA_BROKERS) }),
    },
    {
      provide: commandsToken,
      inject: [dataSourceToken],
      useFactory: (dataSource: DataSource) =>
        new CommandLedger(dataSource, options.schema, {
          slowCommand: slowCommandFault(process.env.CONSIGN_FAULT_SLOW_COMMAND),
        }),
    },
    RelayLifecycle,
  ];

  @Module({})
  class ServiceDatabaseModule {}

  return {
    module: {
      module: ServiceDatabaseModule,
      providers,
      exports: [dataSourceToken, outboxToken, inboxToken, commandsToken],
    },
    dataSource: dataSourceToken,
    options,
    outbox: outboxToken,
    inbox: inboxToken,
    commands: commandsToken,
  };
}

function toArray<T>(list: T[] | Record<string, T> | undefined): T[] {
  if (!list) return [];
  return Array.isArray(list) ? list : Object.values(list);
}
