import { getPath, isAbout, setPath } from './contract-test-kit';

describe('contract test kit', () => {
  it('sets and deletes values by API path', () => {
    const target = { a: [{ b: 1 }, { b: 2 }], c: { d: 'x' } };
    setPath(target, 'a[1].b', 5);
    setPath(target, 'c.d', undefined);
    expect(target).toEqual({ a: [{ b: 1 }, { b: 5 }], c: {} });
    expect(getPath(target, 'a[1].b')).toBe(5);
  });

  it('throws on a path through a missing object', () => {
    expect(() => setPath({}, 'a.b', 1)).toThrow('no object at "a" of a.b');
  });

  it.each<[string, string, boolean]>([
    ['title must be a string', 'title', true],
    ['variants[0].sku should not be empty', 'variants[0]', true],
    ['variants: each value in nested property', 'variants', true],
    ['title_extra must be a string', 'title', false],
    ['variants[10].sku should not be empty', 'variants[1]', false],
    ['title', 'title', false],
  ])('isAbout(%p, %p) is %p', (message, path, expected) => {
    expect(isAbout(message, path)).toBe(expected);
  });
});
