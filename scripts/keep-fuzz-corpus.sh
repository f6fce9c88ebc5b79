#!/usr/bin/env bash
# Keeps what fuzzing has found in the repository, so that a run of hours can go on in a later
# session, on a fresh machine, from where the last one stopped (docs/faults.md, "Fuzzing").
#
#   scripts/keep-fuzz-corpus.sh NAME...     NAME: a target built by scripts/build-fuzzers.sh
#
# For each target, libFuzzer's merge (-merge=1) reads what is kept already in Fuzz/grown/NAME and
# what runs on this machine found in .build/fuzz/corpus/NAME, and writes the fewest of those inputs
# that reach all the coverage they reach, together, to Fuzz/grown/NAME (the inputs named by their
# SHA-1, as libFuzzer names them). scripts/run-fuzzers.sh reads that folder as seeds. The merge runs
# every input once: seconds for a parser, minutes for an exchange target's thousands of transfers.
# Prints one line per target: inputs and bytes before and after. FUZZ_OPTIMIZATION and FUZZ_BUILD
# as for scripts/build-fuzzers.sh.
set -euo pipefail

cd "$(dirname "$0")/.."
if [[ "${FUZZ_OPTIMIZATION:--O}" == -Onone ]]; then BUILD=${FUZZ_BUILD:-.build/fuzz-onone}; else BUILD=${FUZZ_BUILD:-.build/fuzz}; fi
(($#)) || { echo "keep-fuzz-corpus: name the targets whose corpus to keep" >&2; exit 2; }

. scripts/fuzz-targets.sh
# "inputs bytes" in the folders $@.
inputs() { find "$@" -maxdepth 1 -type f -printf '%s\n' | awk '{ n++; b += $1 } END { print n + 0, b + 0 }'; }
for target in "$@"; do
    entry=$(fuzz_entry "$target") || exit 2
    [[ -x "$BUILD/bin/fuzz-$target" ]] || { echo "keep-fuzz-corpus: no $BUILD/bin/fuzz-$target (run scripts/build-fuzzers.sh)" >&2; exit 2; }
    kept="Fuzz/grown/$target" found="$BUILD/corpus/$target"
    [[ -d "$found" ]] || { echo "keep-fuzz-corpus: $target: nothing found yet (no $found)" >&2; exit 2; }
    # A copy of what was found: a fuzzer still running replaces inputs with shorter ones.
    work=$(mktemp -d)
    merged="$work/merged" snapshot="$work/found"
    mkdir "$merged"
    cp -r "$found" "$snapshot"
    sources=("$snapshot")
    [[ -d "$kept" ]] && sources=("$kept" "$snapshot")
    read -r count before < <(inputs "${sources[@]}")
    read -r -a options <<< "$(sed -n 's|^// libFuzzer options: ||p' "$entry")"
    # The same environment as scripts/run-fuzzers.sh, so an input behaves as it did there.
    if ! ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0} SWIFT_BACKTRACE=enable=no "$BUILD/bin/fuzz-$target" -merge=1 \
        -timeout=10 -rss_limit_mb=4096 "${options[@]}" "$merged" "${sources[@]}" > "$BUILD/logs/$target.merge.log" 2>&1; then
        rm -rf "$work"
        echo "keep-fuzz-corpus: $target: the merge failed; see $BUILD/logs/$target.merge.log" >&2
        exit 1
    fi
    rm -rf "$kept"
    mkdir -p "$(dirname "$kept")"
    mv "$merged" "$kept"
    chmod 755 "$kept"
    rm -rf "$work"
    read -r kept_count after < <(inputs "$kept")
    echo "keep-fuzz-corpus: $target: $count inputs, $before bytes -> $kept_count inputs, $after bytes in $kept"
done
