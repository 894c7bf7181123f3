import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { errorCodes } from 'fastify';
import { ApiError, unwrapReply } from './api-error';
import { describeError } from './api-exception.filter';
import { failure, success, CommonErrorCode } from '@consign/contracts';

describe('describeError', () => {
  it('answers an ApiError with its status, message and headers', () => {
    expect(describeError(new ApiError(409, 'taken', { 'x-a': 'b' }))).toEqual({
      status: 409,
      message: 'taken',
      headers: { 'x-a': 'b' },
    });
  });

  it('rewords Fastify’s body errors, which Nest hands over as HttpExceptions', () => {
    const invalid = new HttpException(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY().message, 400);
    expect(describeError(invalid)).toMatchObject({
      status: 400,
      message: 'Malformed JSON in request body.',
    });
    const tooLarge = new HttpException(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE().message, 413);
    expect(describeError(tooLarge)).toMatchObject({
      status: 413,
      message: 'Request body too large.',
    });
  });

  it('answers an unknown route as a plain 404', () => {
    expect(describeError(new NotFoundException('Cannot GET /x'))).toMatchObject({
      status: 404,
      message: 'Not found.',
    });
    expect(describeError(new BadRequestException())).toMatchObject({ status: 400 });
  });

  it('hides anything unexpected behind a 500', () => {
    expect(describeError(new TypeError('secret internals'))).toEqual({
      status: 500,
      message: 'Internal error.',
      headers: {},
    });
  });
});

describe('unwrapReply', () => {
  it('returns the data of a success', () => {
    expect(unwrapReply(success(5))).toBe(5);
  });

  it('throws the mapped status, with Retry-After on 503', () => {
    expect(() => unwrapReply(failure(CommonErrorCode.NotFound, 'gone'))).toThrow(
      new ApiError(404, 'gone'),
    );
    try {
      unwrapReply(failure(CommonErrorCode.Unavailable, 'down'));
    } catch (error) {
      expect(error).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    }
    expect.assertions(2);
  });
});
