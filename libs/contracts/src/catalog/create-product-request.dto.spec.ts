import { CreateProductRequest } from './create-product-request.dto';
import { CreateVariantRequest } from './create-variant-request.dto';
import { ProductImageDto } from './product-image.dto';
import {
  contractCheck,
  describeCurrencyCodes,
  describeMaxLengths,
  itAcceptsMissing,
  itRejectsMissing,
  minimalProduct,
  text,
  validProduct,
  validVariant,
  valueOf,
} from '@consign/testing/fixtures';

const check = contractCheck(CreateProductRequest, validProduct);
const { errors, rejectedAt, withValue } = check;

describe('CreateProductRequest', () => {
  it('accepts a complete product', () => {
    const value = valueOf(CreateProductRequest, validProduct());
    expect(value).toBeInstanceOf(CreateProductRequest);
    expect(value.variants?.[0]).toBeInstanceOf(CreateVariantRequest);
    expect(value.images?.[0]).toBeInstanceOf(ProductImageDto);
    expect(value.variants?.[1].sku).toBe('TSHIRT-BLUE-M');
  });

  it('accepts a product with only its required fields', () => {
    expect(errors(minimalProduct())).toEqual([]);
  });

  describeMaxLengths(check, [
    ['title', 256],
    ['body_html', 65535],
    ['vendor', 64],
    ['source', 32],
    ['category', 256],
    ['images[0].url', 255],
    ['images[0].title', 127],
    ['variants[0].sku', 128],
    ['variants[1].title', 256],
  ]);

  itRejectsMissing(check, [
    'title',
    'currency',
    'images[0].url',
    'variants[0].sku',
    'variants[0].title',
    'variants[0].retail_price',
    'variants[0].weight_unit',
    'variants[1].unit',
  ]);

  it.each(['title', 'variants[0].sku', 'variants[0].title', 'images[0].url'])(
    'rejects an empty %s',
    (path) => {
      expect(rejectedAt(withValue(path, ''), path)).toContain(`${path} should not be empty`);
    },
  );

  itAcceptsMissing(check, [
    'body_html',
    'vendor',
    'tags',
    'source',
    'options',
    'category',
    'images',
    'variants',
    'images[0].title',
    'variants[0].compare_at_price',
    'variants[0].weight',
    'variants[0].options',
  ]);

  it('accepts a null image title (the spec: "may be null")', () => {
    expect(errors(withValue('images[0].title', null))).toEqual([]);
  });

  it.each(['title', 'vendor', 'category', 'body_html', 'images[0].url'])(
    'rejects a non-string %s',
    (path) => {
      expect(rejectedAt(withValue(path, 12), path)).toContain(`${path} must be a string`);
    },
  );

  describeCurrencyCodes(check, {
    accepted: ['USD', 'EUR', 'CNY'],
    rejected: ['usd', 'US', 'USDT', '', 'U$D', 840],
  });

  describe('tags (total length of the tags joined with "," at most 2046)', () => {
    // 1023 + "," + 1022 = 2046 characters.
    const atLimit = [text(1023, 'a'), text(1022, 'b')];

    it('accepts tags whose joined length is exactly the limit', () => {
      expect(atLimit.join(',').length).toBe(2046);
      expect(errors(withValue('tags', atLimit))).toEqual([]);
    });

    it('rejects tags whose joined length is one over the limit', () => {
      const over = [text(1023, 'a'), text(1023, 'b')];
      expect(rejectedAt(withValue('tags', over), 'tags')).toContain(
        'tags must be at most 2046 characters long when joined with ","',
      );
    });

    it('counts the separators: many short tags over the limit are rejected', () => {
      const tags = Array.from({ length: 683 }, (_, i) => String(i % 10).repeat(2)); // 683*3-1 = 2048
      expect(rejectedAt(withValue('tags', tags), 'tags').length).toBeGreaterThan(0);
    });

    it('accepts an empty list', () => {
      expect(errors(withValue('tags', []))).toEqual([]);
    });

    it.each<[string, unknown, string]>([
      ['an empty tag', ['ok', ''], 'tags: each value in tags should not be empty'],
      ['a non-string tag', ['ok', 5], 'tags: each value in tags must be a string'],
      ['a tag containing the separator', ['a,b'], 'tags: each value in tags must not contain ","'],
      ['a string instead of an array', 'a,b', 'tags must be an array'],
    ])('rejects %s', (_case, tags, message) => {
      expect(rejectedAt(withValue('tags', tags), 'tags')).toContain(message);
    });
  });

  describe('options (option name to list of values; JSON text at most 65535)', () => {
    const overhead = JSON.stringify({ o: [''] }).length; // {"o":[""]}

    it('accepts options whose JSON text is exactly the limit', () => {
      const options = { o: [text(65535 - overhead)] };
      expect(JSON.stringify(options).length).toBe(65535);
      expect(errors(withValue('options', options))).toEqual([]);
    });

    it('rejects options whose JSON text is one over the limit', () => {
      const options = { o: [text(65535 - overhead + 1)] };
      expect(rejectedAt(withValue('options', options), 'options')).toContain(
        'options must be at most 65535 characters long as JSON text',
      );
    });

    it('accepts an empty object', () => {
      expect(errors(withValue('options', {}))).toEqual([]);
    });

    it.each<[string, unknown]>([
      ['an array', [['Red']]],
      ['a string', 'Color'],
      ['a value that is not a list', { Color: 'Red' }],
      ['a list with a non-string value', { Color: ['Red', 1] }],
      ['an empty option name', { '': ['Red'] }],
    ])('rejects %s', (_case, options) => {
      expect(rejectedAt(withValue('options', options), 'options')).toContain(
        'options must be an object mapping each option name to an array of string values',
      );
    });
  });

  describe('variants', () => {
    it('rejects two variants with the same sku, naming variants', () => {
      const plain = withValue('variants[1].sku', validVariant().sku);
      expect(rejectedAt(plain, 'variants')).toEqual([
        'variants must not contain the same sku twice (TSHIRT-RED-M)',
      ]);
    });

    it('treats skus differing only in case as different', () => {
      expect(errors(withValue('variants[1].sku', validVariant().sku.toLowerCase()))).toEqual([]);
    });

    it('accepts an empty list', () => {
      expect(errors(withValue('variants', []))).toEqual([]);
    });

    it.each<[string, unknown]>([
      ['an object instead of an array', validVariant()],
      ['a null element', [null]],
      ['a string element', ['sku']],
    ])('rejects %s', (_case, variants) => {
      expect(rejectedAt(withValue('variants', variants), 'variants').length).toBeGreaterThan(0);
    });

    it('names the element and field of an invalid nested value', () => {
      expect(
        rejectedAt(withValue('variants[1].weight_unit', 'ton'), 'variants[1].weight_unit'),
      ).toEqual(['variants[1].weight_unit must be one of the following values: g, kg, oz, lb']);
    });

    it('applies the requires_shipping default inside the list', () => {
      const plain = withValue('variants[0].requires_shipping', undefined);
      expect(valueOf(CreateProductRequest, plain).variants?.[0].requires_shipping).toBe(true);
    });
  });

  describe('images', () => {
    it.each<[string, unknown]>([
      ['an object instead of an array', { url: 'https://x' }],
      ['a string element', ['https://x']],
    ])('rejects %s', (_case, images) => {
      expect(rejectedAt(withValue('images', images), 'images').length).toBeGreaterThan(0);
    });
  });

  it('strips unknown properties at every level', () => {
    const plain = {
      ...validProduct(),
      id: 7,
      merchant_id: 3,
      images: [{ ...validProduct().images[0], width: 10 }],
      variants: [{ ...validVariant(), id: 99, stock: 5 }],
    };
    const value = valueOf(CreateProductRequest, plain);
    expect(value).not.toHaveProperty('id');
    expect(value).not.toHaveProperty('merchant_id');
    expect(value.images?.[0]).not.toHaveProperty('width');
    expect(value.variants?.[0]).not.toHaveProperty('id');
    expect(value.variants?.[0]).not.toHaveProperty('stock');
    expect(value.variants?.[0].sku).toBe(validVariant().sku);
  });

  it('rejects a body that is not an object', () => {
    expect(errors([validProduct()])).toEqual(['body must be a JSON object']);
  });
});
