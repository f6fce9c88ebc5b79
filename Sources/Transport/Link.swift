// Placeholder removed once the Link protocol lands (issue 3).
