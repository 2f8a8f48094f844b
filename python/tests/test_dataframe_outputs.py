"""The CLI's Parquet and JSON Lines outputs in pandas, polars and DuckDB, and the CSV
recipes of docs/dataframes.md: every reader gets string puzzles and solutions,
integer counts and null errors, in input order, with the values of the CSV."""

from __future__ import annotations

import csv
import json
import math
import subprocess
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pytest

from conftest import DATA, EMPTY, P17, UNSOLVABLE, generated

COUNTS = ["line", "solutions", "clues", "guesses", "time_ns"]
TEXTS = ["file", "puzzle", "status", "solution", "error"]
# An all-digit solution and kept ids with leading zeros are where type sniffers go wrong.
INVALID = ["12345", P17[:40] + "x" + P17[41:], "7...7" + "." * 76]


def run(cli: Path, *args: str, code: int = 0) -> None:
    done = subprocess.run([str(cli), *args, "-q"], capture_output=True, text=True)
    assert done.returncode == code, done.stderr


@pytest.fixture(scope="module")
def outputs(cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory with the solve and verify outputs of data/generated_1000.txt and a
    second input with a record of every other kind (so that the first error comes
    after 1000 null ones, past polars' type sample), in CSV, Parquet and JSON Lines; and
    the same of a run with a kept column."""
    d = tmp_path_factory.mktemp("outputs")
    (d / "other.txt").write_text("\n".join([EMPTY, UNSOLVABLE, *INVALID]) + "\n")
    rows = ["id,quizzes"] + [f"{i:06d},{p}" for i, p in enumerate(generated(50))]
    (d / "keep.csv").write_text("\n".join(rows) + "\n")
    inputs = [str(DATA / "generated_1000.txt"), str(d / "other.txt")]
    for ext in ["csv", "parquet", "jsonl"]:
        run(cli, "solve", *inputs, "-o", str(d / f"solved.{ext}"))
        run(cli, "solve", str(d / "keep.csv"), "--keep", "id", "-o", str(d / f"kept.{ext}"))
        run(cli, "verify", "--all", str(d / "other.txt"), "-o", str(d / f"verified.{ext}"), code=1)
    jigsaw = subprocess.run(
        [str(cli), "generate", "-n", "20", "--seed", "3", "--rules", "jigsaw", "--format", "csv"],
        capture_output=True,
        text=True,
        check=True,
    )
    # And an invalid record under the same rules, so that `error` is not null throughout
    # (a column null in every line has no type in JSON: see docs/dataframes.md).
    regions = jigsaw.stdout.splitlines()[1].split(",")[-1]
    (d / "jigsaw.csv").write_text(jigsaw.stdout + f"12345,,jigsaw,{regions}\n")
    for ext in ["csv", "parquet", "jsonl"]:
        run(cli, "solve", str(d / "jigsaw.csv"), "--column", "puzzle", "-o", str(d / f"variant.{ext}"))
    return d


def csv_rows(path: Path) -> list[dict]:
    """The CSV as the standard library reads it: all text, nothing guessed."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def normalise(records: list[dict]) -> list[dict]:
    """Records as plain Python values: None for any kind of missing value."""

    def value(v):
        if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
            return None
        return v.item() if hasattr(v, "item") else v

    return [{k: value(v) for k, v in r.items()} for r in records]


def check_values(records: list[dict], want: list[dict], counts: list[str]) -> None:
    """Same rows in the same order as the CSV: text equal (empty is None), counts equal
    as integers; time_ns only typed, since each run times its own search."""
    records = normalise(records)
    assert len(records) == len(want)
    assert list(records[0]) == list(want[0])
    for got, row in zip(records, want):
        for name, text in row.items():
            if name in counts:
                assert isinstance(got[name], int) and not isinstance(got[name], bool), (name, got)
                if name != "time_ns":
                    assert got[name] == int(text), (name, got, row)
            elif text == "" and name in ("solution", "error", "detail"):
                assert got[name] is None, (name, got, row)
            else:
                assert got[name] == text, (name, got, row)


# ---- readers: each returns (records, {column: kind}) where kind is "str" or "int" ----


def pandas_kinds(df: pd.DataFrame) -> dict[str, str]:
    kinds = {}
    for name in df.columns:
        if pd.api.types.is_integer_dtype(df[name]):
            kinds[name] = "int"
        elif pd.api.types.is_string_dtype(df[name]):
            kinds[name] = "str"
        else:
            kinds[name] = str(df[name].dtype)
    return kinds


def polars_kinds(df: pl.DataFrame) -> dict[str, str]:
    return {
        name: "int" if dtype.is_integer() else "str" if dtype == pl.String else str(dtype)
        for name, dtype in df.schema.items()
    }


def duckdb_frame(rel: duckdb.DuckDBPyRelation) -> tuple[list[dict], dict[str, str]]:
    ints = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT"}
    kinds = {
        name: "int" if str(t) in ints else "str" if str(t) == "VARCHAR" else str(t)
        for name, t in zip(rel.columns, rel.types)
    }
    records = [dict(zip(rel.columns, row)) for row in rel.fetchall()]
    return records, kinds


# The CSV columns a type sniffer would take for numbers: digits (puzzles, solutions, jigsaw
# regions, kept ids) or empty throughout (errors, details).
CSV_TEXTS = ["puzzle", "solution", "error", "detail", "id", "regions"]


def read_pandas(path: Path) -> tuple[list[dict], dict[str, str]]:
    if path.suffix == ".parquet":
        df = pd.read_parquet(path)
    elif path.suffix == ".jsonl":
        # dtype=False: pandas would otherwise turn digit strings into numbers.
        df = pd.read_json(path, lines=True, dtype=False)
    else:
        df = pd.read_csv(path, dtype={n: str for n in CSV_TEXTS})
    return df.to_dict("records"), pandas_kinds(df)


def read_polars(path: Path) -> tuple[list[dict], dict[str, str]]:
    if path.suffix == ".parquet":
        df = pl.read_parquet(path)
    elif path.suffix == ".jsonl":
        # polars takes each field's type from the first 100 lines: a column null there
        # (the errors of a clean start) would be typed Null and fail later.
        df = pl.read_ndjson(path, schema_overrides=nullable_texts(path, pl.String))
    else:
        text = {name: pl.String for name in CSV_TEXTS}
        df = pl.read_csv(path, schema_overrides=text)
    return df.to_dicts(), polars_kinds(df)


def read_duckdb(path: Path) -> tuple[list[dict], dict[str, str]]:
    con = duckdb.connect()
    if path.suffix == ".parquet":
        rel = con.sql(f"FROM '{path}'")
    elif path.suffix == ".jsonl":
        # DuckDB types each field from a sample of lines; one null throughout the sample
        # is typed NULL and its later values are lost: sample the whole file.
        rel = con.sql(f"FROM read_json('{path}', sample_size = -1)")
    else:
        # Only the columns the file has may be named in `types`.
        header = path.read_text().split("\n", 1)[0].split(",")
        text = {n: "VARCHAR" for n in CSV_TEXTS if n in header}
        # DuckDB guesses the quote character from a sample too: with no quoted field
        # there (an error message has commas) it would take none.
        rel = con.sql(f"FROM read_csv('{path}', quote = '\"', types = {text})")
    return duckdb_frame(rel)


def nullable_texts(path: Path, text_type) -> dict:
    """`text_type` for the nullable text columns a JSON Lines output has."""
    with open(path) as f:
        names = json.loads(f.readline())
    return {name: text_type for name in ("solution", "error", "detail") if name in names}


READERS = {"pandas": read_pandas, "polars": read_polars, "duckdb": read_duckdb}
FORMATS = ["parquet", "jsonl", "csv"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("reader", READERS)
def test_solve_output_reads_with_string_solutions_integer_counts_null_errors(outputs, reader, fmt):
    want = csv_rows(outputs / "solved.csv")
    records, kinds = READERS[reader](outputs / f"solved.{fmt}")
    assert kinds == {**{n: "int" for n in COUNTS}, **{n: "str" for n in TEXTS}}
    check_values(records, want, COUNTS)
    # Nulls where there is nothing: every valid puzzle's error, every unsolved one's
    # solution.
    by_status = {}
    for r in normalise(records):
        by_status.setdefault(r["status"], []).append(r)
    assert set(by_status) == {"unique", "multiple", "unsolvable", "invalid"}
    assert all(r["error"] is None for s in ("unique", "multiple", "unsolvable") for r in by_status[s])
    assert all(r["solution"] is None for s in ("unsolvable", "invalid") for r in by_status[s])
    assert all(len(r["solution"]) == 81 for r in by_status["unique"])
    assert len(by_status["invalid"]) == len(INVALID)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("reader", READERS)
def test_kept_columns_stay_text(outputs, reader, fmt):
    want = csv_rows(outputs / "kept.csv")
    records, kinds = READERS[reader](outputs / f"kept.{fmt}")
    assert kinds["id"] == "str"
    check_values(records, want, COUNTS)
    assert normalise(records)[0]["id"] == "000000"


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("reader", READERS)
def test_verify_findings_read_typed(outputs, reader, fmt):
    want = csv_rows(outputs / "verified.csv")
    records, kinds = READERS[reader](outputs / f"verified.{fmt}")
    assert kinds == {"line": "int", "puzzle": "str", "kind": "str", "detail": "str"}
    check_values(records, want, ["line"])
    kinds_found = {r["kind"] for r in normalise(records)}
    assert {"multiple", "unsolvable", "malformed", "conflict"} <= kinds_found


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("reader", READERS)
def test_variant_rules_and_regions_read_as_text(outputs, reader, fmt):
    """Under variant rules the rows gain `rules` and `regions`: jigsaw regions are 81
    digits, text in every reader like the solutions."""
    want = csv_rows(outputs / "variant.csv")
    records, kinds = READERS[reader](outputs / f"variant.{fmt}")
    assert kinds == {**{n: "int" for n in COUNTS}, **{n: "str" for n in TEXTS + ["rules", "regions"]}}
    check_values(records, want, COUNTS)
    rows = normalise(records)
    assert len(rows) == 21
    assert all(r["rules"] == "jigsaw" and len(r["regions"]) == 81 for r in rows)
    assert all(r["status"] == "unique" and len(r["solution"]) == 81 for r in rows[:20])
    assert all(r["error"] is None for r in rows[:20])
    assert rows[20]["status"] == "invalid" and rows[20]["error"] == "5 cells, expected 81"


def test_parquet_is_typed_as_documented(outputs):
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.read_schema(outputs / "kept.parquet")
    assert schema.names == ["file", "line", "puzzle", "status", "solutions", "clues", "guesses", "time_ns", "solution", "error", "id"]
    for name in COUNTS:
        assert schema.field(name).type == pa.uint64()
    for name in TEXTS + ["id"]:
        assert schema.field(name).type == pa.string()
    meta = pq.ParquetFile(outputs / "solved.parquet").metadata
    assert meta.row_group(0).column(0).compression == "ZSTD"
    # DuckDB reads it with its own Parquet reader: unsigned 64-bit integers.
    described = duckdb.sql(f"DESCRIBE FROM '{outputs / 'solved.parquet'}'").fetchall()
    types = {row[0]: row[1] for row in described}
    assert types["solutions"] == "UBIGINT" and types["solution"] == "VARCHAR"


@pytest.mark.parametrize("reader", READERS)
def test_an_error_after_the_readers_type_samples_is_kept(cli, tmp_path, reader):
    """DuckDB types JSON fields from 20,480 lines and polars from 100: with the recipes
    above an error past both samples is still read, as text."""
    puzzles = generated()
    (tmp_path / "late.txt").write_text("\n".join(puzzles * 21 + ["12345"]) + "\n")
    for ext in ["parquet", "jsonl", "csv"]:
        out = tmp_path / f"late.{ext}"
        run(cli, "solve", str(tmp_path / "late.txt"), "-o", str(out))
        records, kinds = READERS[reader](out)
        assert kinds["error"] == "str", ext
        errors = [r["error"] for r in normalise(records) if r["error"] is not None]
        assert errors == ["5 cells, expected 81"], ext
        assert len(records) == 21 * len(puzzles) + 1


# `--compression` names and the codec pyarrow reports for each (Arrow C++ calls
# Parquet's LZ4_RAW plain "LZ4").
CODECS = {"zstd": {"ZSTD"}, "lz4": {"LZ4", "LZ4_RAW"}, "snappy": {"SNAPPY"}, "none": {"UNCOMPRESSED"}}


@pytest.mark.parametrize("codec", list(CODECS))
def test_every_codec_reads_back_in_pyarrow_as_the_csv(cli, tmp_path, codec):
    import pyarrow.parquet as pq

    inputs = [str(DATA / "generated_1000.txt")]
    (tmp_path / "other.txt").write_text("\n".join([EMPTY, UNSOLVABLE, *INVALID]) + "\n")
    inputs.append(str(tmp_path / "other.txt"))
    run(cli, "solve", *inputs, "-o", str(tmp_path / "solved.csv"))
    out = tmp_path / f"solved.{codec}.parquet"
    run(cli, "solve", *inputs, "--compression", codec, "-o", str(out))
    meta = pq.ParquetFile(out).metadata
    found = {
        meta.row_group(g).column(c).compression
        for g in range(meta.num_row_groups)
        for c in range(meta.num_columns)
    }
    assert found and found <= CODECS[codec], found
    records = pq.read_table(out).to_pylist()
    check_values(records, csv_rows(tmp_path / "solved.csv"), COUNTS)
