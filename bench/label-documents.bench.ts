/*
 * Rendering label documents (issue 14): labels per second and latency per format, in-process,
 * one render at a time — what GET /2026-05/cloud/label/{id}/document spends in label-tracking
 * beyond reading the label (one primary-key SELECT) and the bus.
 *
 *   npm run bench:label-documents [-- --renders 300 --warmup 30]
 *
 * Pinned to one CPU (taskset, when it exists, is the caller's business: run it under
 * `taskset -c 1`). Each format renders the same numbered label (UPS, New York to London, with its
 * PDF417 code); `customs` is its CN23 declaration. Latency is wall time per render
 * (process.hrtime), p50/p99/max over `renders`; labels/s is renders / total time.
 */
import { cpus, loadavg } from 'node:os';
import { CustomsForm, LabelDocumentFormat, LabelDocumentType } from '@consign/contracts';
import { renderLabelDocument } from '@consign/label-tracking';
import { aNumberedLabel } from '@consign/testing/fixtures';
import { argNumber } from './bench-args';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

interface Case {
  name: string;
  type: LabelDocumentType;
  format: LabelDocumentFormat;
  /** A recipient whose name WinAnsi can show: the PDF's Helvetica path (nothing embedded). */
  latin?: boolean;
}

const CASES: Case[] = [
  {
    name: 'pdf (Latin text: Helvetica)',
    type: LabelDocumentType.Label,
    format: LabelDocumentFormat.Pdf,
    latin: true,
  },
  {
    name: 'pdf (any script: DejaVu embedded)',
    type: LabelDocumentType.Label,
    format: LabelDocumentFormat.Pdf,
  },
  { name: 'png', type: LabelDocumentType.Label, format: LabelDocumentFormat.Png },
  { name: 'zpl', type: LabelDocumentType.Label, format: LabelDocumentFormat.Zpl },
  { name: 'customs (CN23 pdf)', type: LabelDocumentType.Customs, format: LabelDocumentFormat.Pdf },
];

async function main(): Promise<void> {
  const renders = argNumber('renders', 300);
  const warmup = argNumber('warmup', 30);
  const label = aNumberedLabel('UPS', '1ZC0N51G010000426');
  const latin = aNumberedLabel('UPS', '1ZC0N51G010000426', {
    shipping_address: { ...label.shipping_address, first_name: 'Zoë', last_name: 'Müller' },
  });
  console.log(
    `label documents: ${renders} renders per format after ${warmup} warm-up; node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model}), load ${loadavg()[0].toFixed(2)}`,
  );
  console.log('| document | labels/s | p50 ms | p99 ms | max ms | bytes |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const c of CASES) {
    const render = () =>
      renderLabelDocument(c.latin ? latin : label, c.type, c.format, CustomsForm.CN23);
    for (let i = 0; i < warmup; i++) await render();
    const times: number[] = [];
    let bytes = 0;
    const started = process.hrtime.bigint();
    for (let i = 0; i < renders; i++) {
      const t0 = process.hrtime.bigint();
      bytes = (await render()).bytes.length;
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const total = Number(process.hrtime.bigint() - started) / 1e9;
    times.sort((a, b) => a - b);
    console.log(
      `| ${c.name} | ${(renders / total).toFixed(0)} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 99).toFixed(2)} | ${times[times.length - 1].toFixed(2)} | ${bytes} |`,
    );
  }
  // The load during the run says how far these figures are from "when nothing else runs".
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
