/// The objects and arrays the encoder has open, innermost last: for each, the byte that closes
/// it and whether it has a member yet (so commas and closing brackets go in the right places).
///
/// It owns its buffer (allocated in `init`, moved when it grows, freed in `deinit`) and cannot be
/// copied, so the buffer is freed exactly once. It lives in an `EncodingContext`'s state.
struct FrameStack: ~Copyable {
    struct Frame {
        var closer: UInt8
        var hasMembers: Bool
    }

    private var frames: UnsafeMutablePointer<Frame>
    private var capacity: Int
    /// How many frames are open.
    var count = 0

    init(capacity: Int = 64) {
        frames = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        frames.deallocate()
    }

    /// Opens a frame; returns its index.
    @inline(__always)
    mutating func push(array: Bool) -> Int {
        let index = count
        if index == capacity { grow() }
        (frames + index).initialize(
            to: Frame(closer: array ? UInt8(ascii: "]") : UInt8(ascii: "}"), hasMembers: false))
        count = index &+ 1
        return index
    }

    /// The closing byte of the open frame at `index`.
    @inline(__always)
    func closer(at index: Int) -> UInt8 {
        frames[index].closer
    }

    /// Marks the open frame at `index` as having a member; returns whether it had one already.
    @inline(__always)
    mutating func addMember(at index: Int) -> Bool {
        let frame = frames + index
        if frame.pointee.hasMembers { return true }
        frame.pointee.hasMembers = true
        return false
    }

    @inline(never)
    private mutating func grow() {
        let larger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: frames, count: count)
        frames.deallocate()
        frames = larger
        capacity *= 2
    }
}
