import { isKafkaError } from './run-main';

describe('runMain', () => {
  it("tells kafkajs' errors from other unhandled rejections", () => {
    const kafka = new Error('Connection error: connect ECONNREFUSED');
    kafka.name = 'KafkaJSNonRetriableError';
    expect(isKafkaError(kafka)).toBe(true);
    expect(isKafkaError(new TypeError('x is undefined'))).toBe(false);
    expect(isKafkaError('KafkaJS')).toBe(false);
  });
});
