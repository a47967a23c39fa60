/// The report page's script and stylesheet: `Page/page.js` and `Page/page.css`, real files that
/// an editor and a linter read, embedded in the executable at build time (`.embedInCode` in
/// Package.swift, read through the generated `PackageResources`). The page inlines these exact
/// bytes, and its Content-Security-Policy allows them by their hashes (`ContentSecurityPolicy`).
enum PageAssets {
    /// The page's one script.
    static var script: [UInt8] { PackageResources.page_js }
    /// The page's one stylesheet.
    static var style: [UInt8] { PackageResources.page_css }
}
