@_spi(RewindInternals) internal import RewindSupport

#if canImport(Runtime)
    internal import Runtime
#endif

/// The call stack of an action, as a transition's `stack` records it: innermost frame first, one
/// string per frame, `function (File.swift:LINE)` where debug information allows (`function`
/// alone where it does not, `?` for a frame with no symbol, `…` where frames were left out).
///
/// The frames of Rewind itself (the store, the recorder, the lock) and the compiler's thunks are
/// left out, so the first frame is the app's command that sent the action.
///
/// Captured with the toolchain's `Runtime` module. Capturing the return addresses takes a few
/// microseconds; finding their functions and lines (symbolicating) takes far longer where there
/// is debug information, about 10 ms a frame in a large debug binary, since the debug
/// information is searched anew for each address. So the text of a stack is remembered by its
/// addresses: the same call path again (the common case, an app's few paths to an illegal
/// transition) costs only the capture.
enum CallStack {
    /// The most frames a stack keeps, counted before Rewind's own are left out.
    static var maximumFrames: Int { 32 }

    /// The calling thread's stack, or nil where the platform cannot capture it.
    static func capture() -> [String]? {
        #if canImport(Runtime)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                return RuntimeCallStack.capture()
            }
        #endif
        return nil
    }

    /// Whether a frame whose symbol has this mangled name belongs to Rewind's own modules.
    static func isRewindFrame(mangledName: String) -> Bool {
        // A Swift symbol is `$s` (`_$s` on Darwin), the module name's length and the name.
        let name = mangledName.hasPrefix("_") ? mangledName.dropFirst() : Substring(mangledName)
        return ownModulePrefixes.contains { name.hasPrefix($0) }
    }

    private static let ownModulePrefixes = ["$s8Recorder", "$s13RewindSupport", "$s7Runtime"]

    /// A demangled function name as a person reads it: without the optimizer's `specialized `
    /// prefixes, which say how it was compiled, not what it is.
    static func functionName(_ demangled: String) -> String {
        var name = Substring(demangled)
        while name.hasPrefix("specialized ") { name = name.dropFirst("specialized ".count) }
        return String(name)
    }

    /// `function (File.swift:LINE)` from a symbol's name and the path and line of its source.
    static func frameText(function: String, path: String?, line: Int) -> String {
        guard let path, line > 0 else { return function }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return "\(function) (\(file):\(line))"
    }
}

/// The text of recently symbolicated stacks, by their return addresses: at most `capacity`,
/// the oldest forgotten first.
struct StackTextCache {
    private var texts: [[UInt64]: [String]] = [:]
    private var order: [[UInt64]] = []

    static var capacity: Int { 64 }

    func text(of addresses: [UInt64]) -> [String]? {
        texts[addresses]
    }

    mutating func remember(_ text: [String], for addresses: [UInt64]) {
        if texts.updateValue(text, forKey: addresses) == nil { order.append(addresses) }
        if order.count > Self.capacity { texts[order.removeFirst()] = nil }
    }
}

#if canImport(Runtime)
    /// Stacks through the `Runtime` module's backtracer.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    private enum RuntimeCallStack {
        static func capture() -> [String]? {
            var images = knownImages(refreshing: false)
            guard var backtrace = try? Backtrace.capture(limit: CallStack.maximumFrames, top: 0, images: images) else {
                return nil
            }
            // A library loaded since the images were listed: list them again, once.
            if backtrace.frames.contains(where: { isOutside(images, $0) }) {
                images = knownImages(refreshing: true)
                guard let again = try? Backtrace.capture(limit: CallStack.maximumFrames, top: 0, images: images)
                else { return nil }
                backtrace = again
            }
            let addresses = backtrace.frames.map(address)
            if let text = stackTexts.withLock({ $0.text(of: addresses) }) { return text }
            guard let symbolicated = backtrace.symbolicated(with: images) else { return nil }
            let text = frames(of: symbolicated)
            stackTexts.withLock { $0.remember(text, for: addresses) }
            return text
        }

        /// The text of each frame that is not Rewind's own.
        private static func frames(of stack: SymbolicatedBacktrace) -> [String] {
            var frames: [String] = []
            var previousFunction: String?
            for (index, frame) in stack.frames.enumerated() {
                switch frame.captured {
                case .omittedFrames, .truncated:
                    // The unwinder also ends this way where it cannot go on (into a C library
                    // built without frame pointers): that is the end of what can be known.
                    if index >= CallStack.maximumFrames - 1 { frames.append("…") }
                    continue
                default:
                    break
                }
                guard let symbol = frame.symbol else {
                    frames.append("?")
                    continue
                }
                if frame.isSwiftThunk || CallStack.isRewindFrame(mangledName: symbol.rawName) { continue }
                let function = CallStack.functionName(symbol.name)
                let location = symbol.sourceLocation
                // An optimized build calls a generic function's specialized copy from its
                // unspecialized entry: one function, shown once, where the source line is.
                if location == nil, function == previousFunction { continue }
                previousFunction = function
                frames.append(CallStack.frameText(function: function, path: location?.path, line: location?.line ?? 0))
            }
            return frames
        }

        /// A frame's return address or program counter; 0 for a marker of left-out frames.
        private static func address(_ frame: Backtrace.Frame) -> UInt64 {
            switch frame {
            case .programCounter, .returnAddress, .asyncResumePoint:
                return UInt64(frame.originalProgramCounter) ?? 0
            case .omittedFrames(let count):
                return UInt64(count)
            case .truncated:
                return 0
            @unknown default:
                return 0
            }
        }

        /// Whether a frame's address lies in none of `images`.
        private static func isOutside(_ images: ImageMap, _ frame: Backtrace.Frame) -> Bool {
            switch frame {
            case .programCounter, .returnAddress, .asyncResumePoint:
                return images.indexOfImage(at: frame.adjustedProgramCounter) == nil
            case .omittedFrames, .truncated:
                return false
            @unknown default:
                return false
            }
        }

        /// The images (executable and libraries) of the process, listed once: listing them reads
        /// the process's memory map, which costs more than the rest of a capture.
        private static func knownImages(refreshing: Bool) -> ImageMap {
            cachedImages.withLock { cached in
                if !refreshing, let images = cached as? ImageMap { return images }
                let images = ImageMap.capture()
                cached = images
                return images
            }
        }
    }

    /// The `ImageMap` of `RuntimeCallStack`, typed `Any` because a stored value cannot have a
    /// type that is only available on newer systems. Guarded by a `Lock` (a pthread mutex): any
    /// thread may capture a stack.
    private let cachedImages = Lock<(any Sendable)?>(nil)
#endif

/// The stacks already symbolicated. Guarded by a `Lock` (a pthread mutex): any thread may
/// capture a stack. Symbolicating happens outside it, so two threads may symbolicate the same
/// new stack once each.
private let stackTexts = Lock(StackTextCache())
