import { loadConfigOf } from '@consign/config';
import { RatingConfig } from './rating.config';

describe('RatingConfig', () => {
  it("reads the rate-card folder; blank or unset is the repository's", () => {
    expect(loadConfigOf(RatingConfig, {}).RATE_CARDS_DIR).toBeUndefined();
    expect(loadConfigOf(RatingConfig, { RATE_CARDS_DIR: ' ' }).RATE_CARDS_DIR).toBeUndefined();
    expect(
      loadConfigOf(RatingConfig, { RATE_CARDS_DIR: '/etc/consign/rate-cards' }).RATE_CARDS_DIR,
    ).toBe('/etc/consign/rate-cards');
  });
});
