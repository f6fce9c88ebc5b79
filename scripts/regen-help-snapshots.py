#!/usr/bin/env python3
"""Rewrites the help snapshots in Tests/DFUCLITests/HelpAndUsageTests.swift from the built binary,
and the documents generated from the same declarations: the man page (docs/dfu.1) and the bash and
zsh completions (completions/), which `make install` installs and GeneratedDocumentsTests compares.

Run after a deliberate change of help text (`swift build` first), then read the diff: a snapshot
is a review of the CLI, not a formality.
"""
import re
import subprocess
import sys

TESTS = "Tests/DFUCLITests/HelpAndUsageTests.swift"
DFU = ".build/debug/dfu"
INDENT = " " * 12

source = open(TESTS).read()
# Names first: each rewrite moves the text after it, so positions are looked up afresh per name.
for name in re.findall(r"@Test func (\w+)HelpMatchesSnapshot\(\)", source):
    match = re.search(r"@Test func " + name + r"HelpMatchesSnapshot\(\)", source)
    # imageListHelpMatchesSnapshot is `dfu image list --help`: one word per capital.
    args = ["--help"] if name == "root" else re.sub(r"([A-Z])", r" \1", name).lower().split() + ["--help"]
    output = subprocess.run([DFU] + args, capture_output=True, text=True, check=True).stdout
    if name == "root":
        output = re.sub(r"dfu \d+\.\d+\.\d+\.", "dfu X.Y.Z.", output, count=1)
    if "\\" in output or '"""' in output:
        sys.exit(f"{name}: help text with a backslash or triple quote needs escaping by hand")
    start = source.index('"""\n', match.start()) + 4
    end = source.index('"""', start)
    body = "".join((INDENT + line if line else "") + "\n" for line in output.split("\n")[:-1]) + "\n" + INDENT
    source = source[:start] + body + source[end:]
open(TESTS, "w").write(source)

# The generated documents, byte for byte what the binary prints.
DOCUMENTS = {
    "docs/dfu.1": ["--generate-manual"],
    "completions/dfu.bash": ["--generate-completion-script", "bash"],
    "completions/_dfu": ["--generate-completion-script", "zsh"],
}
for path, args in DOCUMENTS.items():
    output = subprocess.run([DFU] + args, capture_output=True, text=True, check=True).stdout
    open(path, "w").write(output)
