@_spi(RewindInternals) internal import RewindSupport

/// Idle `JSONTapeDecoder`s, shared by every `JSONValueDecoder` in the process, so that decoding
/// one state after another (stepping through a trace) reuses the decoder's buffers and caches
/// instead of making them anew, even when each call makes a new `JSONValueDecoder()`.
///
/// A call takes an idle decoder, or makes one when there is none (several threads decoding at
/// once, or an `init(from:)` that itself decodes with a `JSONValueDecoder`), and gives it back
/// afterwards. At most `limit` decoders wait idle; each gives back memory beyond modest limits
/// when it is done (see `JSONTapeState.reset()`).
enum JSONTapeDecoderPool {
    static let limit = 4

    /// The idle decoders, guarded by the lock: taking one and giving one back are the only
    /// accesses, and a decoder out of the pool belongs to the one call that took it.
    private static let idle = Lock<[JSONTapeDecoder]>([])

    static func withDecoder<R>(_ body: (JSONTapeDecoder) throws -> R) rethrows -> R {
        let decoder = idle.withLock { $0.popLast() } ?? JSONTapeDecoder()
        defer {
            idle.withLock { decoders in
                if decoders.count < limit { decoders.append(decoder) }
            }
        }
        return try body(decoder)
    }
}
