import {
  CARRIER_VOCABULARIES,
  GENERIC_VOCABULARY,
  STEP_STATUS,
  SandboxStep,
} from '@consign/carrier-sandbox';
import { CheckpointNormaliser } from '@consign/label-tracking';

/**
 * The sandbox speaks each carrier's codes and words; label-tracking's tables must read them as the
 * sandbox means them. (The two libraries may not import each other; the app that runs the
 * sandbox checks they agree.)
 */
describe('sandbox vocabularies against the normalisation tables', () => {
  const normaliser = new CheckpointNormaliser();
  const steps = Object.values(SandboxStep);

  describe.each(Object.entries(CARRIER_VOCABULARIES))('%s', (carrier, vocabulary) => {
    it('has a normalisation table', () => {
      expect(normaliser.knows(carrier)).toBe(true);
    });

    it.each(steps)('%s normalises to its status', (step) => {
      const { code, text } = vocabulary.steps[step];
      expect(normaliser.normalise(carrier, code, text).status).toBe(STEP_STATUS[step]);
    });
  });

  describe('a carrier without a table (text only)', () => {
    it.each(steps)('%s normalises to its status by its text', (step) => {
      const { code, text } = GENERIC_VOCABULARY.steps[step];
      expect(normaliser.normalise('ACME-POST', code, text)).toEqual({
        status: STEP_STATUS[step],
        by: 'generic_text',
      });
    });
  });
});
