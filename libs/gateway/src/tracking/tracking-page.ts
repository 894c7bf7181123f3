/** What a public tracking page shows: never a name, street, e-mail or phone number. */
export interface TrackingPageModel {
  /** "Parcel" or "Order". */
  subject: string;
  /** The headline status, in words. */
  status: string;
  /** IANA zone the times are shown in (the destination's). */
  timeZone: string;
  /** ISO 8601 UTC; null until delivered. */
  deliveredTime: string | null;
  shipments: {
    carrier: string | null;
    trackingNumber: string | null;
    checkpoints: {
      /** ISO 8601 UTC. */
      time: string;
      description: string;
      details: string | null;
      status: string;
    }[];
  }[];
}

const STATUS_TEXT: Record<string, string> = {
  information_received: 'Label created',
  in_transit: 'In transit',
  transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  available_for_pickup: 'Ready for pickup',
  delivery_attempt_failed: 'Delivery attempt failed',
  delivered: 'Delivered',
  delivered_with_exception: 'Delivered (with an exception)',
  exception: 'Exception',
  disposed: 'Disposed',
  expired: 'No recent updates',
  unknown: 'Unknown',
};

/** A checkpoint or order status in words. */
export function statusText(status: string): string {
  return STATUS_TEXT[status] ?? status.replace(/([a-z])([A-Z])/g, '$1 $2');
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

function localTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

// Contrast ≥ 4.5:1 everywhere; the layout is one column that widens up to 44rem.
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f5f6f8}
main{max-width:44rem;margin:0 auto;padding:1.25rem}
h1{font-size:1.5rem;margin:0 0 .25rem}
h2{font-size:1.125rem;margin:0 0 .5rem}
h3{font-size:1rem;margin:1rem 0 .5rem}
.status{font-size:1.25rem;font-weight:600;color:#0b5a2a}
.card{background:#fff;border:1px solid #d0d5dc;border-radius:.5rem;padding:1rem;margin-top:1rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{color:#4a5360}
dd{margin:0;overflow-wrap:anywhere}
ol{list-style:none;margin:0;padding:0}
li{border-left:3px solid #8a94a3;padding:0 0 1rem 1rem;margin-left:.25rem}
li:first-child{border-left-color:#0b5a2a}
time{display:block;color:#4a5360;font-size:.875rem}
.what{font-weight:600}
footer{margin-top:2rem;color:#4a5360;font-size:.875rem}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The page of a label or an order: server-rendered, no script. */
export function renderTrackingPage(model: TrackingPageModel): string {
  const zone = escapeHtml(model.timeZone);
  const delivered = model.deliveredTime
    ? `<dt>Delivered</dt><dd><time datetime="${model.deliveredTime}">${escapeHtml(localTime(model.deliveredTime, model.timeZone))}</time></dd>`
    : `<dt>Expected delivery</dt><dd>Not announced by the carrier yet</dd>`;
  const shipments = model.shipments.length
    ? model.shipments
        .map((shipment, index) => {
          const heading =
            model.shipments.length > 1
              ? `Shipment ${index + 1} of ${model.shipments.length}`
              : 'Shipment';
          const checkpoints = shipment.checkpoints.length
            ? `<ol>${shipment.checkpoints
                .map(
                  (c) =>
                    `<li><time datetime="${c.time}">${escapeHtml(localTime(c.time, model.timeZone))}</time><span class="what">${escapeHtml(statusText(c.status))}</span>: ${escapeHtml(c.description)}${c.details ? `<br>${escapeHtml(c.details)}` : ''}</li>`,
                )
                .join('')}</ol>`
            : '<p>No carrier updates yet.</p>';
          return `<section class="card" aria-labelledby="shipment-${index}">
<h2 id="shipment-${index}">${heading}</h2>
<dl>
<dt>Carrier</dt><dd>${escapeHtml(shipment.carrier ?? 'Not assigned yet')}</dd>
<dt>Tracking number</dt><dd>${escapeHtml(shipment.trackingNumber ?? 'Not assigned yet')}</dd>
</dl>
<h3>Updates, latest first</h3>
${checkpoints}
</section>`;
        })
        .join('\n')
    : '<section class="card"><h2>Shipment</h2><p>Not shipped yet.</p></section>';
  return page(
    `${model.subject} tracking: ${model.status}`,
    `<h1>${escapeHtml(model.subject)} tracking</h1>
<p class="status" role="status">${escapeHtml(model.status)}</p>
<section class="card" aria-label="Summary">
<dl>
${delivered}
<dt>Times shown in</dt><dd>${zone}</dd>
</dl>
</section>
${shipments}
<footer>Tracking provided by Consign.</footer>`,
  );
}

/** What a wrong or unknown token gets: a plain 404 page. */
export function renderNotFoundPage(): string {
  return page(
    'Tracking page not found',
    `<h1>Tracking page not found</h1>
<p>This tracking link is not valid. Check the link you were sent, or ask the sender for a new one.</p>`,
  );
}

/** When a service does not answer. */
export function renderUnavailablePage(): string {
  return page(
    'Tracking temporarily unavailable',
    `<h1>Tracking temporarily unavailable</h1>
<p>Please try again in a minute.</p>`,
  );
}
