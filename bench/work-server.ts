/*
 * The calculate/order benchmark's "work only" server (`--work`): the request's own work in bare
 * Fastify, without the platform around it. It parses the body with Fastify's JSON parser, checks
 * it with validateContract and nullAsAbsent (the house's input rules and the contract's, as the
 * gateway's route inputs do), runs rating's pricing on the rate cards of this checkout and
 * answers the envelope. No API key, no bus (its copies and rating-service's second validation),
 * no correlation scope, metrics or access log, no Idempotency-Key hooks. Between bare Fastify
 * and the gateway, it says how much of the gateway's cost is the work and how much the platform.
 * The benchmark starts it as a child process (`node dist/bench/work-server.js <path>`, with
 * PORT), in its own file so that the load generator does not load the contracts and the pricing;
 * it must answer byte for byte what the gateway answers.
 */
import fastify from 'fastify';
import {
  CalculateOrderRequest,
  envelope,
  errorEnvelope,
  httpStatusOf,
  nullAsAbsent,
  validateContract,
  validationMessage,
} from '@consign/contracts';
import { RatingFailure, calculateOrder, findRateCardsFolder, loadRateCards } from '@consign/rating';

async function workServer(path: string): Promise<void> {
  const data = loadRateCards(findRateCardsFolder());
  const app = fastify({ logger: false });
  app.put(path, async (request, reply) => {
    const validated = validateContract(CalculateOrderRequest, request.body);
    if (!validated.ok) {
      reply.code(400);
      return errorEnvelope(400, validationMessage(validated.errors));
    }
    try {
      // As the gateway's route inputs take a body: optional nulls left out.
      return envelope(calculateOrder(data, nullAsAbsent(CalculateOrderRequest, validated.value)));
    } catch (error) {
      // A whole calculation refused (a declared value in a currency without a rate): the status
      // the gateway gives its code.
      if (!(error instanceof RatingFailure)) throw error;
      const status = httpStatusOf(error.code);
      reply.code(status);
      return errorEnvelope(status, error.message);
    }
  });
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void workServer(process.argv[2]);
