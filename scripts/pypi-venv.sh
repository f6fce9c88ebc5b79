# Sourced by the cross-check scripts: their test-only Python tools go into a throw-away venv, and
# a machine without python3's venv or without PyPI skips the check (exit 0) rather than fails it.

# make_venv NAME DIR: a venv in DIR, or "SKIP: NAME: python3 venv unavailable (…)" and exit 0.
make_venv() {
    if ! python3 -m venv "$2" > "$2.log" 2>&1; then
        echo "SKIP: $1: python3 venv unavailable ($(tail -n 1 "$2.log"))"
        exit 0
    fi
}

# pip_failure LOG: why a pip install failed: the network reason if pip logged one (it retries
# quietly), else pip's error line, else its last line.
pip_failure() {
    grep -o -m 1 -E "(Failed to establish a new connection|Temporary failure in name resolution|Read timed out|Connection refused|No route to host)[^')]*" "$1" \
        || grep -m 1 -E '^(ERROR|error)' "$1" || tail -n 1 "$1"
}
