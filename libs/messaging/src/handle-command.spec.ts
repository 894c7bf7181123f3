import { IsInt } from 'class-validator';
import { CommonErrorCode, command } from '@consign/contracts';
import { spyOnLogger } from '@consign/testing/logging';
import { handleCommand } from './handle-command';

class Thing {
  @IsInt()
  merchant_id!: number;
}

const read = command('test.thing.get.v1', Thing, Number);
const change = command('test.thing.change.v1', Thing, Number, { idempotent: true });

describe('handleCommand', () => {
  const error = spyOnLogger('error');

  it('validates the payload and answers the use case', async () => {
    await expect(
      handleCommand(read, { merchant_id: 3 }, async (c) => c.merchant_id),
    ).resolves.toEqual({ ok: true, data: 3 });
    const refused = await handleCommand(read, { merchant_id: 'x' }, async () => 1);
    expect(refused).toMatchObject({ ok: false, error: { code: CommonErrorCode.Validation } });
  });

  it('refuses to run an idempotent command whose handler keeps no ledger', async () => {
    const useCase = jest.fn(async () => 1);
    const reply = await handleCommand(change, { merchant_id: 3 }, useCase);
    expect(reply).toEqual({
      ok: false,
      error: { code: CommonErrorCode.Internal, message: 'Internal error.' },
    });
    expect(useCase).not.toHaveBeenCalled();
    expect(error()).toHaveBeenCalledWith(
      'test.thing.change.v1 is idempotent, but its handler passes no command ledger',
    );
  });
});
