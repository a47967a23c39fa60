#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Bytes that belong to someone else (a part of a file read into memory, one line of it, one
/// member's text in that line), seen through one type that checks its bounds.
///
/// The reading side passes lines and their members around as `ByteView`s and reads them only
/// through these methods, so the raw pointer stays here, with the few storage types that own the
/// memory (a file part's buffer, a read window) and the walker's cursor. Every access asserts its
/// bounds in debug builds, as swift-collections' `_UnsafeHandle` does; release builds skip the
/// check, where the scanners' loops already keep to `count` (and a fuzzed debug build proves it).
///
/// A view is valid only while its owner keeps the bytes: for the call that gives it, as with
/// `withUnsafeBytes`. It is a value of two words; slicing it makes no copy of the bytes.
///
/// Its members are emitted into the modules that use them (`@_alwaysEmitIntoClient`), not into
/// RewindSupport: an app links RewindSupport with the recorder, and reads no trace.
@_spi(RewindInternals) @frozen public struct ByteView {
    /// The first byte; nil only when `count` is 0.
    @usableFromInline let base: UnsafeRawPointer?
    /// The number of bytes.
    public let count: Int

    /// A view of `bytes`, which the caller keeps alive while the view is used.
    @_alwaysEmitIntoClient @inline(__always)
    public init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress
        count = bytes.count
    }

    /// A view of the `count` bytes at `start`.
    @_alwaysEmitIntoClient @inline(__always)
    public init(start: UnsafeRawPointer?, count: Int) {
        assert(count >= 0 && (start != nil || count == 0), "ByteView: \(count) bytes at no address")
        base = start
        self.count = count
    }

    /// No bytes.
    @_alwaysEmitIntoClient public static var empty: ByteView { ByteView(start: nil, count: 0) }

    /// Whether there are no bytes.
    @_alwaysEmitIntoClient public var isEmpty: Bool { count == 0 }

    /// The byte at `offset`, from 0.
    @_alwaysEmitIntoClient
    public subscript(offset: Int) -> UInt8 {
        @inline(__always) get {
            assert(offset >= 0 && offset < count, "ByteView: byte \(offset) of \(count)")
            return base.unsafelyUnwrapped.load(fromByteOffset: offset, as: UInt8.self)
        }
    }

    /// The bytes in `range`, as a view whose offsets start again at 0.
    @_alwaysEmitIntoClient
    public subscript(range: Range<Int>) -> ByteView {
        @inline(__always) get {
            assert(range.lowerBound >= 0 && range.upperBound <= count, "ByteView: bytes \(range) of \(count)")
            return ByteView(start: base.map { $0 + range.lowerBound }, count: range.count)
        }
    }

    /// The bytes from `offset` to the end.
    @_alwaysEmitIntoClient @inline(__always)
    public func suffix(from offset: Int) -> ByteView {
        self[offset..<count]
    }

    /// The first `length` bytes.
    @_alwaysEmitIntoClient @inline(__always)
    public func prefix(_ length: Int) -> ByteView {
        self[0..<length]
    }

    /// The offset of the first `byte` at or after `start`, or nil (`memchr`).
    @_alwaysEmitIntoClient @inline(__always)
    public func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
        assert(start >= 0 && start <= count, "ByteView: search from \(start) of \(count)")
        guard start < count, let base else { return nil }
        return memchr(base + start, Int32(byte), count &- start).map { base.distance(to: UnsafeRawPointer($0)) }
    }

    /// The `T` whose bytes are at `offset` in memory order, at any alignment (a word compared
    /// with a word of ASCII, or mixed into a hash).
    @_alwaysEmitIntoClient @inline(__always)
    public func loadUnaligned<T: FixedWidthInteger>(at offset: Int, as type: T.Type) -> T {
        assert(
            offset >= 0 && offset &+ MemoryLayout<T>.size <= count,
            "ByteView: \(MemoryLayout<T>.size) bytes at \(offset) of \(count)")
        return base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// Whether `other` holds the same bytes.
    @_alwaysEmitIntoClient @inline(__always)
    public func elementsEqual(_ other: ByteView) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return ShortBytes.equal(base.unsafelyUnwrapped, other.base.unsafelyUnwrapped, count: count)
    }

    /// Whether the bytes are those of `word` (an ASCII literal).
    @_alwaysEmitIntoClient @inline(__always)
    public func equals(_ word: StaticString) -> Bool {
        guard count == word.utf8CodeUnitCount else { return false }
        guard count > 0 else { return true }
        return ShortBytes.equal(base.unsafelyUnwrapped, UnsafeRawPointer(word.utf8Start), count: count)
    }

    /// The bytes as UTF-8 text (invalid sequences repaired, as `String(decoding:as:)` does).
    @_alwaysEmitIntoClient
    public var string: String {
        withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes as an array.
    @_alwaysEmitIntoClient
    public var array: [UInt8] {
        withUnsafeBytes { Array($0) }
    }

    /// Calls `body` with a view of the UTF-8 of `text`.
    @_alwaysEmitIntoClient
    public static func withBytes<Value, Failure: Error>(
        of text: String, _ body: (ByteView) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        var text = text
        return try text.withUTF8 { utf8 in
            Result { () throws(Failure) -> Value in try body(ByteView(UnsafeRawBufferPointer(utf8))) }
        }.get()
    }

    /// The address of the first byte, for the storage and cursor types that read raw memory
    /// themselves (a scanner's hot loop); nil when there are no bytes. `Scripts/list-unsafe`
    /// counts its uses with the other raw pointers.
    @_alwaysEmitIntoClient
    public var unsafeBaseAddress: UnsafeRawPointer? { base }

    /// Whether every byte satisfies `predicate`.
    @_alwaysEmitIntoClient
    public func allSatisfy(_ predicate: (UInt8) throws -> Bool) rethrows -> Bool {
        var index = 0
        while index < count {
            if try !predicate(self[index]) { return false }
            index &+= 1
        }
        return true
    }

    /// Calls `body` with a view of `bytes`, in place when the collection's storage is contiguous
    /// (an array, `Data`), else of a copy.
    @_alwaysEmitIntoClient
    public static func withBytes<Value, Failure: Error>(
        of bytes: some Collection<UInt8>, _ body: (ByteView) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        let inPlace = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Failure) -> Value in try body(ByteView(UnsafeRawBufferPointer(buffer))) }
        }
        if let inPlace { return try inPlace.get() }
        return try Array(bytes).withUnsafeBytes { raw in
            Result { () throws(Failure) -> Value in try body(ByteView(raw)) }
        }.get()
    }

    /// Appends the bytes to `array`, in one copy (as a typed buffer: appended as raw bytes,
    /// they go one at a time).
    @_alwaysEmitIntoClient
    public func append(to array: inout [UInt8]) {
        guard let base else { return }
        array.append(contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// Calls `body` with the bytes as a raw buffer, for a system call or an API that takes one.
    @_alwaysEmitIntoClient @inline(__always)
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }
}
