import { binaryKind, fileOf, parsePerfScript, summarize } from './perf-summary';

/** Two samples as `perf script` prints them after `perf inject --jit`. */
const SCRIPT = `MainThread  7846  3356.018777:     200040 cpu-clock:pppH: 
\t          c8dcdb v8::internal::JsonParser<unsigned char>::ParseJsonObject+0x26b (/usr/bin/node)
\t             69b JS:*onEnd /app/node_modules/fastify/lib/content-type-parser.js:295:18+0x61b (/tmp/jt/jitted-7846-25750.so)

MainThread  7846  3356.018977:     200040 cpu-clock:pppH: 
\t ffffffff8f9e5a2b _raw_spin_unlock_irqrestore+0x1b ([kernel.kallsyms])
\t          6ec31b node::StreamBase::WriteString<(node::encoding)1>+0x36b (/usr/bin/node)
\t             f9 JS:+'handleWriteReq node:internal/stream_base_commons:46:24+0xf9 (/tmp/jt/jitted-7846-12.so)

`;

describe('perf-summary', () => {
  it('reads each sample with its frames, innermost first', () => {
    const samples = parsePerfScript(SCRIPT);
    expect(samples).toHaveLength(2);
    expect(samples[1].frames.map(([symbol]) => symbol)).toEqual([
      '_raw_spin_unlock_irqrestore',
      'node::StreamBase::WriteString<(node::encoding)1>',
      "JS:+'handleWriteReq node:internal/stream_base_commons:46:24",
    ]);
  });

  it('sorts binaries into kinds of code', () => {
    expect(binaryKind('[kernel.kallsyms]')).toMatch(/^kernel/);
    expect(binaryKind('/tmp/jt/jitted-7846-12.so')).toMatch(/^code V8 generated/);
    expect(binaryKind('/tmp/perf-7846.map')).toMatch(/^code V8 generated/);
    expect(binaryKind('/usr/bin/node')).toMatch(/^node itself/);
  });

  it('gives each part its inclusive share, in µs a request when told the rate', () => {
    const text = summarize(parsePerfScript(SCRIPT), {
      // 1,000 Hz and 10 requests: a sample is 100 µs a request.
      perRequest: 1e6 / 1000 / 10,
      parts: [
        ['JSON.parse', /JsonParser/],
        ['the socket write', /StreamBase::WriteString/],
        ['pricing', /pricing/],
      ],
    });
    expect(text).toContain('2 samples, 200.0 µs a request');
    expect(text).toContain(' 50.0 %   100.0 µs/req  JSON.parse');
    expect(text).toContain(' 50.0 %   100.0 µs/req  the socket write');
    expect(text).toContain('  0.0 %     0.0 µs/req  pricing');
    expect(text).toContain(' 50.0 %   100.0 µs/req  kernel');
  });

  it('names the file of a JavaScript frame, and of no other', () => {
    expect(fileOf('JS:*onEnd /app/node_modules/fastify/lib/content-type-parser.js:295:18')).toBe(
      'fastify/lib/content-type-parser.js',
    );
    expect(fileOf("JS:*'calc /app/dist/libs/rating/src/order.js:36:24")).toBe(
      'libs/rating/src/order.js',
    );
    expect(fileOf("JS:+'handleWriteReq node:internal/stream_base_commons:46:24")).toBe(
      'node:internal/stream_base_commons',
    );
    expect(fileOf("JS:*'copyShape :3:26")).toBe('(code made at run time: new Function)');
    expect(fileOf('v8::internal::JsonParser<unsigned char>::ParseJsonObject')).toBeUndefined();
  });

  it("charges each sample to its innermost JavaScript frame's file, the kernel apart", () => {
    const text = summarize(parsePerfScript(SCRIPT), { perRequest: 1e6 / 1000 / 10, parts: [] });
    expect(text).toContain(' 50.0 %   100.0 µs/req  fastify/lib/content-type-parser.js\n');
    expect(text).toContain(
      ' 50.0 %   100.0 µs/req  node:internal/stream_base_commons, in the kernel',
    );
  });
});
