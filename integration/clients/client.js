// Drives lakesql serve through Node mysql2 and prints the transcript that
// integration/clients_test.go compares.
//
//   node client.js HOST PORT
//
// query() sends text statements (COM_QUERY); execute() prepares them on the
// server (COM_STMT_PREPARE / COM_STMT_EXECUTE, binary rows), which is the
// path mysql2-based ORMs take. Both are used for inserts and reads.
//
// A value is printed in the transcript's canonical form if mysql2 decoded
// it to what a MySQL server's column type gives (DECIMAL: string, DATE and
// DATETIME: Date, integers: number); otherwise as <type value>, so the
// comparison shows it.
'use strict';

const mysql = require('mysql2/promise');

const DDL = `CREATE TABLE orders (
  region VARCHAR(8) NOT NULL,
  id BIGINT NOT NULL,
  amount DECIMAL(12,2),
  placed DATE,
  updated DATETIME(6),
  note VARCHAR(32),
  PRIMARY KEY (region, id)
) PARTITION BY LIST COLUMNS (region)`;

const COLUMNS = 'region, id, amount, placed, updated, note';

const FIRST_ROWS = [
  ['eu', 1, '10.50', '2026-04-16', '2026-04-16 10:11:12.345', 'first'],
  ['us', 2, '1234567.89', '2026-04-17', '2026-04-17 00:00:00', null],
  ['eu', 3, null, null, null, 'x'],
];
const SECOND_ROWS = [
  ['eu', 1, '11.00', '2026-04-16', '2026-04-18 08:00:00', 'corrected'],
  ['us', 4, '-0.05', '2026-12-31', '2026-12-31 23:59:59.999', 'second'],
];

const BAD_SQL = [
  ['syntax error', 'SELEC * FROM orders'],
  ['unknown table', 'SELECT * FROM no_such_table'],
];

const pad = (n, width) => String(n).padStart(width, '0');

// kinds say what each column must decode to: 'string', 'number',
// 'decimal' (mysql2 gives DECIMAL as a string), 'date', 'datetime'.
function canonical(value, kind) {
  if (value === null) return 'NULL';
  const shown = `<${value?.constructor?.name ?? typeof value} ${JSON.stringify(value)}>`;
  switch (kind) {
    case 'string':
    case 'decimal':
      return typeof value === 'string' ? value : shown;
    case 'number':
      return typeof value === 'number' ? String(value) : shown;
    case 'date':
      if (!(value instanceof Date)) return shown;
      return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1, 2)}-${pad(value.getUTCDate(), 2)}`;
    case 'datetime':
      if (!(value instanceof Date)) return shown;
      return `${canonical(value, 'date')} ${pad(value.getUTCHours(), 2)}:${pad(value.getUTCMinutes(), 2)}:` +
        `${pad(value.getUTCSeconds(), 2)}.${pad(value.getUTCMilliseconds() * 1000, 6)}`;
    default:
      return typeof value === 'number' || typeof value === 'string' ? String(value) : shown;
  }
}

const ORDER_KINDS = ['string', 'number', 'decimal', 'date', 'datetime', 'string'];

function emit(label, rows, kinds = []) {
  for (const row of rows) {
    console.log([label, ...row.map((v, i) => canonical(v, kinds[i]))].join('\t'));
  }
}

function multiRowInsert(rows) {
  const tuple = `(${COLUMNS.split(', ').map(() => '?').join(', ')})`;
  return [`INSERT INTO orders (${COLUMNS}) VALUES ${rows.map(() => tuple).join(', ')}`, rows.flat()];
}

async function main() {
  const [host, port] = process.argv.slice(2);
  // rowsAsArray keeps column order; timezone 'Z' makes DATE and DATETIME
  // UTC Dates, so the transcript does not depend on the machine's zone.
  const conn = await mysql.createConnection({
    host, port: Number(port), user: 'root', password: '', rowsAsArray: true, timezone: 'Z',
  });
  await conn.query('CREATE DATABASE shop');
  await conn.query('USE shop');
  await conn.query(DDL);

  // The first batch goes as text with client-side escaping, the second as
  // a prepared statement with bound parameters: one multi-row INSERT each.
  const [firstSQL, firstArgs] = multiRowInsert(FIRST_ROWS);
  await conn.query(firstSQL, firstArgs);
  emit('first', (await conn.query(`SELECT ${COLUMNS} FROM orders ORDER BY id`))[0], ORDER_KINDS);
  const [secondSQL, secondArgs] = multiRowInsert(SECOND_ROWS);
  await conn.execute(secondSQL, secondArgs);
  emit('latest', (await conn.execute(`SELECT ${COLUMNS} FROM orders ORDER BY id`))[0], ORDER_KINDS);
  emit('as of 1', (await conn.query(`SELECT ${COLUMNS} FROM orders FOR VERSION AS OF 1 ORDER BY id`))[0], ORDER_KINDS);
  emit('filtered', (await conn.execute(
    'SELECT id, amount FROM orders WHERE region = ? AND amount > ? ORDER BY id', ['eu', '0']))[0], ['number', 'decimal']);

  for (const [label, sql] of BAD_SQL) {
    for (const [how, run] of [['query', (s) => conn.query(s)], ['execute', (s) => conn.execute(s)]]) {
      try {
        await run(sql);
        console.log(`${label} (${how})\tno error`);
      } catch (e) {
        if (e.errno === undefined) throw e;
        console.log(`${label} (${how})\t${e.errno}`);
      }
    }
  }
  emit('totals', (await conn.query('SELECT COUNT(*), SUM(amount) FROM orders'))[0], ['number', 'decimal']);
  emit('same connection', (await conn.execute('SELECT CONNECTION_ID() = ?', [conn.threadId]))[0]);
  await conn.end();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
