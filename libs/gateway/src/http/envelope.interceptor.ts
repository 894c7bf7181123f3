import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Observable, map } from 'rxjs';
import { Envelope, envelope } from '@consign/contracts';

/** Every successful controller result goes out in the common envelope with code 200. */
@Injectable()
export class EnvelopeInterceptor<T> implements NestInterceptor<T, Envelope<T> | T> {
  intercept(context: ExecutionContext, next: CallHandler<T>): Observable<Envelope<T> | T> {
    if (context.getType() !== 'http') return next.handle();
    // House rule: HTTP status equals the envelope code, and success is 200, creates included.
    context.switchToHttp().getResponse<FastifyReply>().status(200);
    return next.handle().pipe(map((data) => envelope(data)));
  }
}
