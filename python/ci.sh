#!/usr/bin/env bash
# CI of the Python package and the scale-out recipes, from a clean checkout:
#   - the extension crate: cargo fmt, clippy -D warnings, and exactly one pyo3;
#   - `maturin build --release`: one abi3 wheel, installed into a fresh virtualenv
#     with the pinned test dependencies;
#   - pytest on python/tests, Spark and Dask included: a skipped test fails the run;
#   - the shard recipes' end-to-end test (GNU parallel, Slurm array script).
# Installs what a fresh machine lacks (GNU parallel; Java if missing). Exits non-zero
# on any failure. `.ci/run` calls it; it can be run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
python=${PYTHON:-python3}

apt_install() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# moreutils has a `parallel` of its own, with other options.
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
  echo "== installing GNU parallel"
  apt_install parallel
fi
if ! command -v java >/dev/null 2>&1; then
  echo "== installing Java 17 (for pyspark)"
  apt_install openjdk-17-jre-headless
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/bulkdoku-python-ci.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
venv=$scratch/venv

echo "== fresh virtualenv ($("$python" --version))"
"$python" -m venv "$venv"
export PYO3_PYTHON=$venv/bin/python

echo "== python/: cargo fmt --check"
cargo fmt --manifest-path python/Cargo.toml -- --check

echo "== python/: exactly one pyo3 in the build"
pyo3_versions=$(cargo tree --manifest-path python/Cargo.toml --prefix none -e normal,build |
  grep -E '^pyo3 v' | sort -u)
echo "$pyo3_versions"
[ "$(echo "$pyo3_versions" | wc -l)" -eq 1 ] || { echo "more than one pyo3 version" >&2; exit 1; }

echo "== python/: cargo clippy -D warnings"
cargo clippy --manifest-path python/Cargo.toml --all-targets --quiet -- -D warnings

echo "== the CLI (cargo build --release), for the tests that compare with it"
cargo build --release --quiet --bin bulkdoku
export BULKDOKU_CLI=$repo/target/release/bulkdoku

echo "== maturin build --release: the abi3 wheel"
# The maturin that pyproject.toml pins, so that CI builds the wheel users would get.
maturin_pin=$(sed -n 's/^requires = \["\(maturin==[^"]*\)"\]$/\1/p' python/pyproject.toml)
[ -n "$maturin_pin" ] || { echo "no pinned maturin in python/pyproject.toml" >&2; exit 1; }
"$venv/bin/pip" install --quiet --disable-pip-version-check "$maturin_pin"
started=$SECONDS
(cd python && "$venv/bin/maturin" build --release --quiet --out "$scratch/wheels")
wheels=("$scratch"/wheels/*.whl)
echo "built in $((SECONDS - started)) s: ${wheels[*]##*/}"
# One wheel, for the stable ABI: every CPython from 3.10 on takes it.
[ "${#wheels[@]}" -eq 1 ] || { echo "expected one wheel, found ${#wheels[@]}" >&2; exit 1; }
case "${wheels[0]##*/}" in
  bulkdoku-*-cp310-abi3-*.whl) ;;
  *) echo "not an abi3 (cp310) wheel: ${wheels[0]##*/}" >&2; exit 1 ;;
esac

echo "== pip install the wheel and the test dependencies"
"$venv/bin/pip" install --quiet --disable-pip-version-check "${wheels[0]}" -r python/requirements-test.txt

echo "== pytest python/tests"
# Outside python/, so that the source tree's bulkdoku/ (without its compiled module)
# is not imported in place of the installed package.
cd "$scratch"
"$venv/bin/pytest" "$repo/python/tests" -ra -p no:cacheprovider --junitxml="$scratch/pytest.xml"
cd "$repo"
# Every test must run here, Spark and Dask included: a skip means something is missing.
"$venv/bin/python" - "$scratch/pytest.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET

suites = ET.parse(sys.argv[1]).getroot()
suites = [suites] if suites.tag == "testsuite" else list(suites)
tests = sum(int(s.get("tests", 0)) for s in suites)
skipped = sum(int(s.get("skipped", 0)) for s in suites)
if tests == 0 or skipped:
    sys.exit(f"pytest: {tests} tests, {skipped} skipped: every test must run in CI")
print(f"pytest: {tests} tests, none skipped")
PY

echo "== pyarrow reads a recovered Parquet file (a library test, with this virtualenv's pyarrow)"
# In release, as the README's test command has built the library's tests already.
BULKDOKU_TEST_PYTHON=$venv/bin/python cargo test --release --lib --quiet pyarrow_reads_a_recovered_file

echo "== shard recipes (scripts/test-shards.sh)"
BULKDOKU=$repo/target/release/bulkdoku scripts/test-shards.sh
