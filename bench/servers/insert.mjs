// Baseline of the write scenarios: a bare node:http server whose POST inserts one job row (a copy
// of a row the service wrote, with a new id) in one transaction, on the same database and engine
// as the service: what a write costs below everything the service adds (validation, keys, rate
// limits, idempotency, events, quotas, the answer). Argument: port, DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';

const [port, url] = [Number(process.argv[2]), process.argv[3]];
const newId = () => `job_${randomBytes(8).toString('hex')}`;

/** insert(row) in one transaction; the template row is read once. */
async function inserter() {
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    const template = db.prepare('select * from jobs order by created_at desc limit 1').get();
    const columns = Object.keys(template);
    const statement = db.prepare(
      `insert into jobs (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    const insert = db.transaction((row) => statement.run(row));
    return async () => {
      const id = newId();
      insert({ ...template, id });
      return id;
    };
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const { rows } = await pool.query('select * from jobs order by created_at desc limit 1');
  const template = rows[0];
  const columns = Object.keys(template);
  const text = `insert into jobs (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
  return async () => {
    const id = newId();
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(
        text,
        columns.map((c) => (c === 'id' ? id : template[c])),
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    return id;
  };
}

const insert = await inserter();
createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const body = JSON.stringify({ id: await insert() });
      response.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    } catch (error) {
      response.writeHead(500);
      response.end(String(error));
    }
  });
}).listen(port, '127.0.0.1', () => process.send?.('listening'));
