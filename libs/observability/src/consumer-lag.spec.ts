import { ConsumerGroups, consumerLag } from './consumer-lag';

describe('consumer lag', () => {
  it('is the high watermark minus the committed offset, per partition', () => {
    expect(
      consumerLag(
        [
          { partition: 1, offset: '40' },
          { partition: 0, offset: '100' },
        ],
        [
          { partition: 0, high: '105', low: '0' },
          { partition: 1, high: '40', low: '10' },
        ],
      ),
    ).toEqual([
      { partition: 0, lag: 5 },
      { partition: 1, lag: 0 },
    ]);
  });

  it('counts everything retained on a partition the group never committed (it reads from the beginning)', () => {
    expect(
      consumerLag(
        [{ partition: 0, offset: '-1' }],
        [
          { partition: 0, high: '30', low: '12' },
          { partition: 1, high: '7', low: '0' },
        ],
      ),
    ).toEqual([
      { partition: 0, lag: 18 },
      { partition: 1, lag: 7 },
    ]);
  });

  it('is never negative, even when the watermark read is older than the commit', () => {
    expect(
      consumerLag([{ partition: 0, offset: '50' }], [{ partition: 0, high: '48', low: '0' }]),
    ).toEqual([{ partition: 0, lag: 0 }]);
  });

  it('remembers each group with the union of its topics', () => {
    const groups = new ConsumerGroups();
    groups.add('order-service-server', ['b.v1', 'a.v1']);
    groups.add('order-service-server', ['a.v1', 'c.v1']);
    groups.add('label-tracking-service-checkpoints', ['carrier.checkpoint.v1']);
    expect(groups.entries()).toEqual([
      ['order-service-server', ['a.v1', 'b.v1', 'c.v1']],
      ['label-tracking-service-checkpoints', ['carrier.checkpoint.v1']],
    ]);
  });
});
