/** The common response envelope of every HTTP response (spec: "Common response envelope"). */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T | null;
}

export const SUCCESS_MESSAGE = 'success';

export function envelope<T>(data: T, message = SUCCESS_MESSAGE): Envelope<T> {
  return { code: 200, message, data };
}

export function errorEnvelope(code: number, message: string): Envelope<null> {
  return { code, message, data: null };
}
