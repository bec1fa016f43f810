#!/usr/bin/env node
// `npx karlsruhe-marketplace-api mcp`: the MCP server over stdio (dist/mcp/stdio.js, built by
// `npm run build`). It reads MARKETPLACE_API_URL (default http://127.0.0.1:3000) and, optionally,
// MARKETPLACE_API_KEY (a developer key adds the write tools). stdout belongs to the MCP protocol.
const USAGE = `Usage: karlsruhe-marketplace-api mcp

  mcp   Run the MCP (Model Context Protocol) server on stdio for the Karlsruhe Marketplace API.

Environment:
  MARKETPLACE_API_URL   Base URL of the API (default http://127.0.0.1:3000)
  MARKETPLACE_API_KEY   A developer key (optional): adds the write tools create_job, apply_to_job, book_listing
`;

const command = process.argv[2];
if (command === 'mcp') {
  try {
    await import('../dist/mcp/stdio.js');
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/mcp/stdio.js')) {
      process.stderr.write('dist/mcp/stdio.js is missing: run `npm run build` first (or use `npm run mcp`).\n');
      process.exit(1);
    }
    throw error;
  }
} else {
  process.stderr.write(USAGE);
  process.exit(command === undefined || command === '--help' || command === '-h' ? 0 : 2);
}
