/// The candidate nearest to a mistyped name, if one is close enough to suggest ("did you mean …?"):
/// at most two edits away, or the start of exactly one candidate.
public func closestName(to typed: String, among candidates: [String]) -> String? {
    let prefixed = candidates.filter { $0.hasPrefix(typed) }
    if !typed.isEmpty && prefixed.count == 1 { return prefixed[0] }
    // The distance is at least the difference in length, so only names within 2 characters of the
    // typed one can be close: a long typed name (a plan's header cell) costs no table per candidate.
    let length = typed.count
    let scored = candidates.filter { abs($0.count - length) <= 2 }.map { (name: $0, distance: editDistance(typed, $0)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2,
          best.distance < typed.count else { return nil }
    return best.name
}

/// Levenshtein distance between two short names.
private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        previous = current
    }
    return previous[b.count]
}
