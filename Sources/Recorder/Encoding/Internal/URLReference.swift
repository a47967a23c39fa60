/// A URL reference split into its five parts, and resolved against a base URL as RFC 3986
/// (section 5.2) says: what `URL.absoluteString` gives for a URL made relative to another.
struct URLReference {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits `text` as the regular expression of RFC 3986, appendix B, does.
    init(_ text: String) {
        var rest = Substring(text)
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
            !rest[..<colon].contains(where: { "/?#".contains($0) })
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        path = String(rest)
    }

    /// The reference written back (RFC 3986, section 5.3).
    var text: String {
        var text = scheme.map { $0 + ":" } ?? ""
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// `relative` resolved against `base` (RFC 3986, section 5.2.2).
    static func resolve(_ relative: String, against base: String) -> String {
        let reference = URLReference(relative)
        let base = URLReference(base)
        var target = reference
        if reference.scheme != nil {
            target.path = removingDotSegments(reference.path)
        } else {
            if reference.authority != nil {
                target.path = removingDotSegments(reference.path)
            } else {
                if reference.path.isEmpty {
                    target.path = base.path
                    target.query = reference.query ?? base.query
                } else if reference.path.hasPrefix("/") {
                    target.path = removingDotSegments(reference.path)
                } else {
                    target.path = removingDotSegments(merging(reference.path, into: base))
                }
                target.authority = base.authority
            }
            target.scheme = base.scheme
        }
        return target.text
    }

    /// RFC 3986, section 5.2.3.
    private static func merging(_ path: String, into base: URLReference) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...slash] + path
    }

    /// RFC 3986, section 5.2.4.
    static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") || input == "/.." {
                input = input == "/.." ? "/" : input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}
