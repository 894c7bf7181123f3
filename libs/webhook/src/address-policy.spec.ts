import { AddressPolicy } from './address-policy';
import { endpointUrlProblem } from './endpoint-url';

describe('which addresses webhooks may reach', () => {
  const strict = new AddressPolicy([]);

  it.each([
    '127.0.0.1',
    '::1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '100.64.0.1',
    'fd12::1',
    '169.254.169.254',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '0.0.0.0',
    '224.0.0.1',
  ])('refuses %s by default', (address) => {
    expect(strict.refusal(address)).not.toBeNull();
  });

  it.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(strict.refusal(address)).toBeNull();
    },
  );

  it('allows loopback only when the setting names it', () => {
    const loopback = new AddressPolicy(['loopback']);
    expect(loopback.refusal('127.0.0.1')).toBeNull();
    expect(loopback.refusal('::1')).toBeNull();
    expect(loopback.refusal('10.0.0.1')).not.toBeNull();
    expect(loopback.refusal('169.254.169.254')).not.toBeNull();
  });
});

describe('which webhook URLs may be registered', () => {
  const strict = { allowHttp: false, policy: new AddressPolicy([]) };
  const local = { allowHttp: true, policy: new AddressPolicy(['loopback']) };

  it('wants https unless http is allowed', () => {
    expect(endpointUrlProblem('http://example.com/hook', strict)).toBe('url must be https');
    expect(endpointUrlProblem('https://example.com/hook', strict)).toBeNull();
    expect(endpointUrlProblem('http://example.com/hook', local)).toBeNull();
    expect(endpointUrlProblem('ftp://example.com/hook', local)).toBe('url must be http or https');
  });

  it('refuses guarded literal addresses, localhost and credentials', () => {
    expect(endpointUrlProblem('https://169.254.169.254/latest', strict)).toMatch(/link-local/);
    expect(endpointUrlProblem('https://[::1]/hook', strict)).toMatch(/loopback/);
    expect(endpointUrlProblem('https://localhost/hook', strict)).toMatch(/loopback/);
    expect(endpointUrlProblem('https://user:pw@example.com/hook', strict)).toMatch(/credentials/);
    expect(endpointUrlProblem('http://127.0.0.1:8080/hook', local)).toBeNull();
  });
});
