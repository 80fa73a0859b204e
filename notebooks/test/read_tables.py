"""Reads crosslink table directories with every Python reader a data
scientist would use and prints, per table and reader, one JSON line: row
count, column names, a type class per column, NULLs and NaNs per column and
the sum of each numeric column. Used by readers_test.go, which compares the
lines with what crosslink wrote and with DuckDB's.

Usage: python read_tables.py [--count] TABLE_DIR...
(--count: only the row counts, of polars and DuckDB.)
"""
import json
import math
import sys

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq


def kind_arrow(t):
    if pa.types.is_dictionary(t):
        t = t.value_type
    if pa.types.is_floating(t):
        return "float"
    if pa.types.is_integer(t):
        return "int"
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_boolean(t):
        return "bool"
    return str(t)


def summary_arrow(tbl):
    out = {"rows": tbl.num_rows, "columns": tbl.column_names, "types": {}, "nulls": {}, "nans": {}, "sums": {}}
    for name in tbl.column_names:
        col = tbl.column(name)
        k = kind_arrow(col.type)
        out["types"][name] = k
        out["nulls"][name] = col.null_count
        if k == "float":
            vals = [v for v in col.to_pylist() if v is not None]
            out["nans"][name] = sum(1 for v in vals if math.isnan(v))
            out["sums"][name] = sum(v for v in vals if not math.isnan(v))
        elif k == "int":
            out["sums"][name] = float(sum(v for v in col.to_pylist() if v is not None))
    return out


def summary_pandas(df):
    # pandas holds NULL of a float column as NaN: NULLs and NaNs together.
    tbl = pa.Table.from_pandas(df, preserve_index=False)
    return summary_arrow(tbl)


def summary_polars(df):
    out = {"rows": df.height, "columns": df.columns, "types": {}, "nulls": {}, "nans": {}, "sums": {}}
    for name in df.columns:
        s = df[name]
        dt = s.dtype
        if dt.is_float():
            k = "float"
        elif dt.is_integer():
            k = "int"
        elif dt == pl.Boolean:
            k = "bool"
        elif dt in (pl.String, pl.Categorical) or isinstance(dt, pl.Enum):
            k = "string"
        else:
            k = str(dt)
        out["types"][name] = k
        out["nulls"][name] = s.null_count()
        if k == "float":
            out["nans"][name] = int(s.is_nan().sum() or 0)
            out["sums"][name] = float(s.filter(~s.is_nan()).sum() or 0.0)
        elif k == "int":
            out["sums"][name] = float(s.cast(pl.Float64).sum() or 0.0)
    return out


def summary_duckdb(d):
    rel = duckdb.sql(f"SELECT * FROM read_parquet('{d}/**/*.parquet')")
    return summary_arrow(rel.to_arrow_table())


READERS = {
    "pyarrow.dataset": lambda d: summary_arrow(ds.dataset(d).to_table()),
    "pyarrow.parquet": lambda d: summary_arrow(pq.read_table(d)),
    "pandas": lambda d: summary_pandas(pd.read_parquet(d)),
    "polars": lambda d: summary_polars(pl.scan_parquet(d).collect()),
    "polars-glob": lambda d: summary_polars(pl.scan_parquet(d + "/**/*.parquet").collect()),
    "duckdb": summary_duckdb,
}

args = sys.argv[1:]
if args and args[0] == "--count":
    args = args[1:]
    READERS = {
        "polars": lambda d: {"rows": pl.scan_parquet(d).select(pl.len()).collect().item()},
        "duckdb": lambda d: {"rows": duckdb.sql(f"SELECT count(*) FROM read_parquet('{d}/**/*.parquet')").fetchall()[0][0]},
    }
for d in args:
    for name, f in READERS.items():
        try:
            res = f(d)
        except Exception as e:  # reported, and failed, by the Go test
            res = {"error": f"{type(e).__name__}: {e}"}
        res["dir"] = d
        res["reader"] = name
        print(json.dumps(res), flush=True)
