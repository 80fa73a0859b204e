// Reads crosslink table directories with DuckDB for node (@duckdb/node-api)
// and prints, per directory, one JSON line: row count, column names, and
// NULLs per column. Used by readers_test.go. Usage: node read-tables.mjs DIR...
import { DuckDBInstance } from '@duckdb/node-api';

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
for (const d of process.argv.slice(2)) {
  const src = `read_parquet('${d}/**/*.parquet')`;
  try {
    const cols = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`)).getRowObjectsJson().map(r => r.column_name);
    const nulls = {};
    const sel = cols.map(c => `count(*) - count("${c}")`).join(', ');
    const r = (await con.runAndReadAll(`SELECT count(*), ${sel} FROM ${src}`)).getRows()[0];
    cols.forEach((c, i) => { nulls[c] = Number(r[i + 1]); });
    console.log(JSON.stringify({ dir: d, reader: 'duckdb-node', rows: Number(r[0]), columns: cols, nulls }));
  } catch (err) {
    console.log(JSON.stringify({ dir: d, reader: 'duckdb-node', error: err.message }));
  }
}
