import { ProductImageDto } from './product-image.dto';
import { errorsFor, errorsOnlyAt, text, validImage, valueOf } from '@consign/testing/fixtures';

const errors = (plain: unknown) => errorsFor(ProductImageDto, plain);

describe('ProductImageDto', () => {
  it('accepts an image with and without a title', () => {
    expect(errors(validImage())).toEqual([]);
    expect(errors({ url: validImage().url })).toEqual([]);
    expect(errors({ url: validImage().url, title: null })).toEqual([]);
  });

  it.each<[string, number]>([
    ['url', 255],
    ['title', 127],
  ])('%s accepts %i characters and rejects one more', (path, max) => {
    expect(errors({ ...validImage(), [path]: text(max) })).toEqual([]);
    expect(errorsOnlyAt(ProductImageDto, { ...validImage(), [path]: text(max + 1) }, path)).toEqual(
      [`${path} must be shorter than or equal to ${max} characters`],
    );
  });

  it('requires url', () => {
    expect(errorsOnlyAt(ProductImageDto, { title: 'Front' }, 'url')).toEqual(['url is required']);
  });

  it('strips unknown properties', () => {
    expect(valueOf(ProductImageDto, { ...validImage(), alt: 'x' })).not.toHaveProperty('alt');
  });
});
