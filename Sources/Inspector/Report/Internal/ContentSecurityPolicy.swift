/// The page's Content-Security-Policy: nothing may load from anywhere, and the only script and
/// style that may run are the page's own, named by their SHA-256 hashes. Even if a string from a
/// trace became markup, no script in it could run, and no request could leave the page.
/// `require-trusted-types-for 'script'` also makes the browser refuse any assignment of a string
/// to `innerHTML` and the like, so the page cannot parse data as markup by mistake.
enum ContentSecurityPolicy {
    /// The policy for a page whose one inline script and one inline style are the bytes `script`
    /// and `style`, exactly as the page holds them.
    static func policy(script: [UInt8], style: [UInt8]) -> String {
        [
            "default-src 'none'",
            "script-src \(source(script))",
            "style-src \(source(style))",
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
            "require-trusted-types-for 'script'",
        ].joined(separator: "; ")
    }

    /// The policy for a page without a script (`coverage --format html`), whose one inline
    /// style is the bytes `style`.
    static func policy(style: [UInt8]) -> String {
        [
            "default-src 'none'",
            "script-src 'none'",
            "style-src \(source(style))",
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
        ].joined(separator: "; ")
    }

    /// A CSP hash source for an inline element's exact bytes: `'sha256-…'`.
    static func source(_ bytes: [UInt8]) -> String {
        "'sha256-\(SHA256.base64(SHA256.digest(bytes)))'"
    }
}
