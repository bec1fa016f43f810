// Baseline 2: the cost of the bytes alone, a bare node:http server answering a typical 20-job
// search page (taken from the service) with JSON.stringify on every request.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const page = JSON.parse(readFileSync(process.argv[3], 'utf8'));
createServer((_request, response) => {
  const body = JSON.stringify(page);
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.send?.('listening'));
