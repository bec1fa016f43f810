// Baseline 1: the ceiling of the machine, a bare node:http server answering a small JSON object.
import { createServer } from 'node:http';

const body = JSON.stringify({ hello: 'world' });
createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.send?.('listening'));
