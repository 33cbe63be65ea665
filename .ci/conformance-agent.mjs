// An MCP client for .ci/conformance-client.sh: the agent a user runs, started
// on `capbridge serve` over stdio. It asks discover_capability for the tool
// named on its command line, runs the card of that name with the given
// parameters through run_capability, and prints the answer. Exit 0 when the
// run succeeded, 3 when capbridge answered that the server needs a sign-in
// (the text names `capbridge login`), 1 on any other failure.
//
// Usage: node conformance-agent.mjs CAPBRIDGE_BIN TOOL PARAMS_JSON
import { Client } from '../testdata/conformance/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { StdioClientTransport } from '../testdata/conformance/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js';

const [bin, tool, paramsJSON] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: ['serve', '--log-level', 'warn'],
  env: process.env,
  stderr: 'inherit',
});
const client = new Client({ name: 'conformance-agent', version: '1' });
await client.connect(transport);
const text = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
try {
  const found = await client.callTool({ name: 'discover_capability', arguments: { intent: tool, limit: 5 } });
  const matches = JSON.parse(text(found)).matches ?? [];
  const card = matches.find((m) => m.name === tool);
  if (!card) {
    console.error(`discover_capability offered no card named ${tool}: ${text(found)}`);
    process.exitCode = 1;
  } else {
    const ran = await client.callTool({ name: 'run_capability', arguments: { actionId: card.actionId, params: JSON.parse(paramsJSON) } });
    console.log(text(ran));
    if (ran.isError) {
      process.exitCode = text(ran).includes('capbridge login') ? 3 : 1;
    }
  }
} finally {
  await client.close();
}
