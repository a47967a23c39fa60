import Foundation
import TestSupport
import Testing

/// The README's tutorial shows pictures that `Scripts/make-pictures` makes from the sample app.
/// Running the script takes a build, tmux and Chromium, too slow for a unit test; these check
/// what can break without running it: every picture the README shows is there, small, and one
/// the script makes, and the script and its converter still parse.
@Suite struct ReadmePicturesTests {
    let script = packageRoot.appendingPathComponent("Scripts/make-pictures")
    let converter = packageRoot.appendingPathComponent("Scripts/ansi_to_html.py")

    /// The targets of the README's images, `![…](PATH)`, in order.
    func pictures() throws -> [String] {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.components(separatedBy: "![").dropFirst().compactMap { image in
            guard let open = image.range(of: "]("), let close = image[open.upperBound...].firstIndex(of: ")")
            else { return nil }
            return String(image[open.upperBound..<close])
        }
    }

    @Test func everyPictureTheReadmeShowsIsAPngTheScriptMakes() throws {
        let pictures = try pictures()
        #expect(pictures.contains("docs/pictures/step-view.png"), "the tutorial shows the step view: \(pictures)")
        #expect(pictures.contains("docs/pictures/report.png"), "the tutorial shows the report: \(pictures)")
        let scriptText = try String(contentsOf: script, encoding: .utf8)
        for picture in pictures {
            let data = try #require(
                FileManager.default.contents(atPath: packageRoot.appendingPathComponent(picture).path),
                "the README shows \(picture), which is not in the repository: run Scripts/make-pictures")
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(picture) is not a PNG")
            #expect(data.count < 200 * 1024, "\(picture) has \(data.count) bytes; keep a picture under 200 KB")
            let name = URL(fileURLWithPath: picture).lastPathComponent
            #expect(
                scriptText.contains("/\(name)\""),
                "Scripts/make-pictures does not make \(picture), so re-running it would leave it stale")
        }
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("Scripts/make-pictures"), "the README says which script makes its pictures")
    }

    @Test func theScriptAndItsConverterParse() throws {
        let bash = try ChildProcess.run("bash", ["-n", script.path])
        #expect(bash.termination == .exited(0), "bash -n Scripts/make-pictures: \(bash.errorText)")
        #expect(FileManager.default.isExecutableFile(atPath: script.path), "Scripts/make-pictures is not executable")

        let folder = try TemporaryFolder()  // py_compile's output, kept out of Scripts/
        let python = try ChildProcess.run(
            "python3",
            [
                "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                converter.path, folder.path("ansi_to_html.pyc"),
            ])
        #expect(python.termination == .exited(0), "py_compile Scripts/ansi_to_html.py: \(python.errorText)")
    }

    /// The converter keeps what the step view's pictures need: colours, reverse video, and one
    /// cell per character so that a symbol the font lacks cannot shift its line.
    @Test func theConverterKeepsColoursAndColumns() throws {
        let folder = try TemporaryFolder()
        let screen = "\u{1B}[7m title \u{1B}[0m\n\u{1B}[31m✖\u{1B}[39m 6 <b>\n"
        try Data(screen.utf8).write(to: folder.url.appendingPathComponent("screen.ansi"))
        let run = try ChildProcess.run(
            "python3", [converter.path, folder.path("screen.ansi"), folder.path("screen.html"), "20", "2"])
        #expect(run.termination == .exited(0), "\(run.errorText)")
        let page = try String(contentsOfFile: folder.path("screen.html"), encoding: .utf8)
        #expect(page.contains("color:#1e1e1e;background:#d4d4d4\">t<"), "reverse video is lost: \(page)")
        #expect(page.contains("left:0px;top:19px;width:9px;color:#e06c75\">✖<"), "the red ✖ is lost: \(page)")
        #expect(page.contains("left:36px;top:19px;width:9px;color:#d4d4d4\">&lt;<"), "markup is not escaped: \(page)")
    }
}
