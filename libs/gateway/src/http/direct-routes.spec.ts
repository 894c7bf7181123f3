import 'reflect-metadata';
import {
  Body,
  CanActivate,
  ExecutionContext,
  Get,
  HttpCode,
  Injectable,
  Module,
  Param,
  PipeTransform,
  Post,
  Query,
  Type,
  UseGuards,
  createParamDecorator,
} from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { APP_GUARD, APP_INTERCEPTOR, APP_PIPE, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { GatewayModule } from '../gateway.module';
import { ApiController, runApiRoutesDirectly } from './direct-routes';
import { RawReply, RawResponder } from './raw-reply';

const Caller = createParamDecorator(
  (data: string, context: ExecutionContext) =>
    `${data}:${context.switchToHttp().getRequest<FastifyRequest>().headers['x-caller'] as string}`,
);

class Doubling implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d+$/.test(value)) throw new Error(`not a number: ${value}`);
    return Number(value) * 2;
  }
}

class Later implements PipeTransform<unknown, Promise<unknown>> {
  async transform(value: unknown): Promise<unknown> {
    await new Promise((done) => setImmediate(done));
    return { later: value };
  }
}

@Injectable()
class Greeter {
  greet(name: string): string {
    return `hello ${name}`;
  }
}

let calls = 0;

@ApiController('2025-07/test')
class TestController {
  constructor(private readonly greeter: Greeter) {}

  @Post(':id/items')
  create(
    @Caller('c') caller: string,
    @Param('id', new Doubling()) id: number,
    @Query() query: unknown,
    @Body(new Later()) body: unknown,
  ): Promise<unknown> {
    calls++;
    return Promise.resolve({ caller, id, query, body, greeting: this.greeter.greet('you') });
  }

  /** Bytes, not JSON: after an await, as a route asking the bus for a document does. */
  @Get('raw/:name')
  async raw(@Param('name') name: string, @RawReply() reply: RawResponder): Promise<void> {
    await new Promise((done) => setImmediate(done));
    reply.send({
      contentType: 'application/zpl',
      filename: `${name}.zpl`,
      bytes: Buffer.from('^XA^XZ'),
    });
  }

  @Get(':id/:name')
  read(@Param() params: unknown): unknown {
    calls++;
    return { params };
  }
}

@Module({ controllers: [TestController], providers: [Greeter] })
class TestModule {}

class Deny implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

async function appFor(module: Type<unknown>): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), {
    logger: false,
  });
  runApiRoutesDirectly(app);
  await app.init();
  return app;
}

describe('runApiRoutesDirectly', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await appFor(TestModule);
  });

  afterAll(() => app.close());

  it('resolves every kind of argument through its pipes, sync and async, then calls the method', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/2025-07/test/21/items?page=2',
      headers: { 'content-type': 'application/json', 'x-caller': 'me' },
      payload: { a: 1 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      caller: 'c:me',
      id: 42,
      query: { page: '2' },
      body: { later: { a: 1 } },
      greeting: 'hello you',
    });
  });

  it('answers bytes with their content type through @RawReply (never awaiting the reply itself)', async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/test/raw/label' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zpl');
    expect(response.headers['content-disposition']).toBe('inline; filename="label.zpl"');
    expect(response.body).toBe('^XA^XZ');
  });

  it('answers a sync result and the whole params object', async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/test/7/x' });
    expect(response.json()).toEqual({ params: { id: '7', name: 'x' } });
  });

  it('sends a pipe failure to the error handler without calling the method', async () => {
    const before = calls;
    const response = await app.inject({
      method: 'POST',
      url: '/2025-07/test/abc/items',
      headers: { 'content-type': 'application/json' },
      payload: {},
    });
    expect(response.statusCode).toBe(500);
    expect(calls).toBe(before);
  });

  it('matches no route with an empty path parameter, as Nest does', async () => {
    const response = await app.inject({ method: 'GET', url: '/2025-07/test//x' });
    expect(response.statusCode).toBe(404);
  });

  it('runs under a gateway that registers no global guard, interceptor or pipe', () => {
    const providers: unknown[] = Reflect.getMetadata(MODULE_METADATA.PROVIDERS, GatewayModule);
    const tokens = providers.map((provider) =>
      typeof provider === 'object' && provider !== null && 'provide' in provider
        ? (provider as { provide: unknown }).provide
        : provider,
    );
    expect(tokens).not.toContain(APP_GUARD);
    expect(tokens).not.toContain(APP_INTERCEPTOR);
    expect(tokens).not.toContain(APP_PIPE);
  });

  it.each([
    ['a guard', () => UseGuards(Deny), '__guards__'],
    ['@HttpCode', () => HttpCode(201), '__httpCode__'],
  ])(
    'refuses to start a route with %s rather than run it without',
    async (_what, decorator, key) => {
      @ApiController('2025-07/refused')
      class RefusedController {
        @decorator()
        @Get()
        get(): string {
          return 'never';
        }
      }
      @Module({ controllers: [RefusedController] })
      class RefusedModule {}
      await expect(appFor(RefusedModule)).rejects.toThrow(
        `RefusedController.get: ${key} is not supported on an @ApiController route`,
      );
    },
  );
});
