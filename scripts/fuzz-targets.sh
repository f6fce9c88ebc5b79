# Where the libFuzzer targets of Fuzz/ live (docs/faults.md, "Fuzzing"); sourced by
# scripts/build-fuzzers.sh and scripts/run-fuzzers.sh, from the repository's root.
#
# A target NAME is one file, Fuzz/NAME.swift, or a folder, Fuzz/NAME/, whose .swift files (below it
# too) are compiled together into fuzz-NAME. A folder's entry file, Fuzz/NAME/NAME.swift, holds what a
# one-file target holds: the opening comment (what the input is, what is checked), the
# `// libFuzzer options:` line and the @_cdecl("LLVMFuzzerTestOneInput"). Fuzz/Support (compiled into
# every target), Fuzz/corpus (the seeds) and Fuzz/grown (what long runs found,
# scripts/keep-fuzz-corpus.sh) are no targets, nor is a folder without its entry file.

# Every target's name, sorted.
fuzz_targets() {
    {
        find Fuzz -mindepth 1 -maxdepth 1 -type f -name '*.swift' -printf '%f\n' | sed 's/\.swift$//'
        find Fuzz -mindepth 1 -maxdepth 1 -type d ! -name Support ! -name corpus ! -name grown -printf '%f\n' | while read -r name; do
            [[ -f "Fuzz/$name/$name.swift" ]] && echo "$name"
        done
    } | LC_ALL=C sort -u
}

# The entry file of target $1; fails, saying why on stderr, when there is no such target or when it
# is both a file and a folder.
fuzz_entry() {
    local name=$1 file="Fuzz/$1.swift" folder="Fuzz/$1/$1.swift"
    if [[ "$name" == Support || "$name" == corpus || "$name" == grown || "$name" == */* ]]; then
        echo "fuzz: '$name' is no target" >&2; return 1
    fi
    if [[ -f "$file" && -f "$folder" ]]; then
        echo "fuzz: target $name is both $file and $folder; keep one" >&2; return 1
    fi
    if [[ -f "$file" ]]; then echo "$file"; elif [[ -f "$folder" ]]; then echo "$folder"; else
        echo "fuzz: no target $name (neither $file nor $folder)" >&2; return 1
    fi
}

# Every file of target $1, sorted: its one file, or its folder's .swift files.
fuzz_files() {
    local entry
    entry=$(fuzz_entry "$1") || return 1
    if [[ "$entry" == "Fuzz/$1.swift" ]]; then echo "$entry"; else
        find "Fuzz/$1" -type f -name '*.swift' | LC_ALL=C sort
    fi
}
