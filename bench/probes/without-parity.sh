#!/usr/bin/env bash
# What the standalone gateway's two parity costs take of a calculate/order request: builds a
# throwaway checkout of HEAD without them and runs the calculate/order benchmark with it as
# --baseline (docs/benchmarks.md, "What the two parity trades would buy").
#
#   bash bench/probes/without-parity.sh validation|both [calculate-order.bench options]
#
# validation: the service no longer validates a command again (handleCommand takes the payload
#             as it comes; the gateway has validated it already in this mode);
# both:       that, and the in-process bus no longer copies requests, replies and events as the
#             JSON round trip would (jsonRoundTrip hands the value itself on).
# For benchmarks only: such a build trusts whatever reaches a service, and its modes differ.
set -euo pipefail
cd "$(dirname "$0")/../.."
what="${1:?validation or both}"
shift
[ "$what" = validation ] || [ "$what" = both ] || { echo "validation or both, not $what" >&2; exit 2; }

checkout="$(mktemp -d "${TMPDIR:-/tmp}/consign-without-parity-XXXXXX")"
rmdir "$checkout"
git worktree add --quiet --detach "$checkout" HEAD
trap 'git worktree remove --force "$checkout"' EXIT
ln -s "$PWD/node_modules" "$checkout/node_modules"

# Each edit must apply exactly: a changed line fails the script rather than measure nothing.
edit() {
  local file="$checkout/$1" from="$2" to="$3"
  grep -qF -- "$from" "$file" || { echo "not found in $1: $from" >&2; exit 1; }
  FROM="$from" TO="$to" perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/g' "$file"
}
edit libs/messaging/src/handle-command.ts \
  'const validated = validateContract(definition.request, payload);' \
  'const validated = { ok: true as const, value: payload as Request, errors: [] };'
if [ "$what" = both ]; then
  edit libs/bus/src/in-process-broker.ts \
    'return value === undefined ? value : jsonCopy(value);' \
    'return value;'
fi

(cd "$checkout" && npm run build --silent)
npm run build --silent
node dist/bench/calculate-order.bench.js --baseline "$checkout" "$@"
