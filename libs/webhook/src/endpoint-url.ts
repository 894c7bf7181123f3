import { isIP } from 'node:net';
import { AddressPolicy } from './address-policy';

/**
 * Whether a webhook URL may be registered: https (http only when allowed), no credentials in it,
 * and, when its host is an IP address, one the policy allows. Host names are judged by the
 * addresses they resolve to at each delivery (see safeLookup): DNS may change after this check.
 */
export function endpointUrlProblem(
  raw: string,
  options: { allowHttp: boolean; policy: AddressPolicy },
): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(options.allowHttp && url.protocol === 'http:'))
    return options.allowHttp ? 'url must be http or https' : 'url must be https';
  if (url.username || url.password) return 'url must not carry credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const refusal = options.policy.refusal(host);
    if (refusal) return `url must not point at ${refusal.replace(/^\S+ is /, '')}`;
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    const refusal = options.policy.refusal('127.0.0.1');
    if (refusal) return 'url must not point at a loopback address';
  }
  return null;
}
