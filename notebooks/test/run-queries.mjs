// Runs SQL queries with DuckDB (the @duckdb/node-api package) and prints,
// for each, its column names and row count as one JSON line. Used by
// notebook_test.go to check the DuckDB cells of notebooks/explore.ipynb
// against a real crosslink dataset. Usage: node run-queries.mjs QUERIES.json
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const queries = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
for (const q of queries) {
  try {
    const reader = await con.runAndReadAll(q);
    const rows = reader.getRowObjectsJson();
    console.log(JSON.stringify({ columns: reader.columnNames(), rows: rows.length, first: rows[0] ?? null }));
  } catch (err) {
    console.error(`query failed: ${err.message}\n${q}`);
    process.exit(1);
  }
}
