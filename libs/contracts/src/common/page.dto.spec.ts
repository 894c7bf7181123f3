import { PAGE_LIMITS, PageQuery } from './page.dto';
import { errorsFor, errorsOnlyAt, valueOf } from '@consign/testing/fixtures';

describe('PageQuery', () => {
  it('defaults to page 1, size 20', () => {
    const value = valueOf(PageQuery, {});
    expect(value).toBeInstanceOf(PageQuery);
    expect(value.page).toBe(1);
    expect(value.size).toBe(20);
  });

  it('converts query strings to integers', () => {
    const value = valueOf(PageQuery, { page: '2', size: '50' });
    expect(value.page).toBe(2);
    expect(value.size).toBe(50);
  });

  it('accepts numbers (a typed caller)', () => {
    expect(valueOf(PageQuery, { page: 3, size: 10 })).toMatchObject({ page: 3, size: 10 });
  });

  it.each(['1', '2147483647'])('accepts page %p', (page) => {
    expect(errorsFor(PageQuery, { page })).toEqual([]);
  });

  it.each(['1', '20', '100'])('accepts size %p', (size) => {
    expect(errorsFor(PageQuery, { size })).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['page', '0', 'page must not be less than 1'],
    ['page', '-1', 'page must not be less than 1'],
    ['page', '2147483648', 'page must not be greater than 2147483647'],
    ['page', 'abc', 'page must be an integer number'],
    ['page', '1.5', 'page must be an integer number'],
    ['page', '1e1', 'page must be an integer number'],
    ['page', '0x10', 'page must be an integer number'],
    ['page', '', 'page must be an integer number'],
    ['page', ['1', '2'], 'page must be an integer number'],
    ['size', '0', 'size must not be less than 1'],
    ['size', '101', 'size must not be greater than 100'],
    ['size', 'abc', 'size must be an integer number'],
    ['size', '1.5', 'size must be an integer number'],
    ['size', 2.5, 'size must be an integer number'],
  ])('rejects %s=%p', (field, value, message) => {
    expect(errorsOnlyAt(PageQuery, { [field]: value }, field)).toContain(message);
  });

  it('strips other query parameters', () => {
    expect(valueOf(PageQuery, { page: '1', sort: 'id' })).not.toHaveProperty('sort');
  });

  it('exports the house-rule limits', () => {
    expect(PAGE_LIMITS).toMatchObject({ default_page: 1, default_size: 20, max_size: 100 });
  });
});
