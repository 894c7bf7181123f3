import { duplicateSkus, isOptionMap, jsonLength } from './catalog.validator';

describe('catalog validators', () => {
  describe('jsonLength', () => {
    it('measures the JSON text', () => {
      expect(jsonLength({ a: ['b'] })).toBe('{"a":["b"]}'.length);
      expect(jsonLength('é')).toBe(3);
    });

    it('is undefined for values without JSON text', () => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      expect(jsonLength(undefined)).toBeUndefined();
      expect(jsonLength(cyclic)).toBeUndefined();
    });
  });

  describe('isOptionMap', () => {
    it.each<[unknown, boolean]>([
      [{ Color: ['Red', 'Blue'] }, true],
      [{}, true],
      [{ Color: [] }, true],
      [{ Color: 'Red' }, false],
      [{ '': ['Red'] }, false],
      [[], false],
      [null, false],
    ])('string-list %p → %p', (value, expected) => {
      expect(isOptionMap(value, 'string-list')).toBe(expected);
    });

    it.each<[unknown, boolean]>([
      [{ Color: 'Red' }, true],
      [{ Color: '' }, true],
      [{ Color: ['Red'] }, false],
      [{ Color: null }, false],
      ['Red', false],
    ])('string %p → %p', (value, expected) => {
      expect(isOptionMap(value, 'string')).toBe(expected);
    });
  });

  describe('duplicateSkus', () => {
    it('lists each repeated sku once', () => {
      expect(duplicateSkus([{ sku: 'A' }, { sku: 'B' }, { sku: 'A' }, { sku: 'A' }])).toEqual([
        'A',
      ]);
    });

    it('ignores elements without a string sku and non-arrays', () => {
      expect(duplicateSkus([{}, {}, null, { sku: 1 }, { sku: 1 }])).toEqual([]);
      expect(duplicateSkus('A')).toEqual([]);
    });
  });
});
