import { Module } from '@nestjs/common';
import { CLOCK, systemClock } from '@consign/core';
import { loadConfigOf } from '@consign/config';
import { CarrierSandboxConfig } from './carrier-sandbox.config';
import { carrierSandboxDatabase } from './carrier-sandbox.database';
import { CarrierSandboxHandlers } from './carrier-sandbox.handlers';
import { SandboxRunner } from './sandbox-runner';
import { SandboxParcelRepository } from './sandbox-parcel.repository';

/**
 * carrier-sandbox: the project's own carrier adapter. For the labels (and order shipments) of the
 * carriers it plays it allocates a tracking number within seconds and publishes a realistic
 * lifecycle on the bus, in each carrier's own event codes, on a configurable clock.
 */
@Module({
  imports: [carrierSandboxDatabase.module],
  controllers: [CarrierSandboxHandlers],
  providers: [
    { provide: CarrierSandboxConfig, useFactory: () => loadConfigOf(CarrierSandboxConfig) },
    { provide: CLOCK, useValue: systemClock },
    SandboxRunner,
    SandboxParcelRepository,
  ],
})
export class CarrierSandboxModule {}
