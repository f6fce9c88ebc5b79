// Replaced by the CLI (issue 2).
