#!/usr/bin/env bash
# Fuzz every target in fuzz/ for a while (FUZZ_SECONDS, 30 by default), starting from
# the committed seed corpora. New corpus entries go to a temporary directory, so the
# committed corpora are never modified; a crash or a failed assertion is saved under
# fuzz/artifacts/<target>/ and fails the script once every target has run.
# Only FUZZ_SECONDS may need setting; FUZZ_TARGETS limits the run to some targets.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

seconds=${FUZZ_SECONDS:-30}

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

# Every execution opens an input, and glibc would map and unmap the larger blocks
# that the readers and decoders (zstd's context) allocate each time: page faults on
# every execution. These tunables keep such blocks in the heap. They change nothing
# but speed.
export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824

targets=${FUZZ_TARGETS:-$(cargo fuzz list)}

echo "== cargo fuzz build (stable toolchain, no sanitizer)"
cargo fuzz build --sanitizer none

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
for target in $targets; do
  echo "== fuzzing $target for ${seconds}s"
  mkdir -p "$work/$target"
  # -timeout: an input that takes a minute is a hang, and fails like a crash (inputs
  # take milliseconds; the margin is for a loaded machine).
  if cargo fuzz run "$target" --sanitizer none "$work/$target" "corpus/$target" -- \
      -max_total_time="$seconds" -timeout=60 -print_final_stats=1 \
      >"$work/$target.log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^Done [0-9]+ runs' "$work/$target.log" || true
  else
    echo "!! $target failed:"
    grep -E -A6 'panicked|ERROR: libFuzzer' "$work/$target.log" | head -n 30 || true
    grep -E -A2 '^Failing input' "$work/$target.log" || tail -n 20 "$work/$target.log"
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing failed: ${failed[*]} (inputs under fuzz/artifacts/)" >&2
  exit 1
fi
echo "fuzzing: every target ran ${seconds}s without a failure"
