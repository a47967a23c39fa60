// Every reinterpreting cast of the Recorder module, in one place.
//
// Generic code that has just checked `T.self == String.self` still holds a `T`; reading it as a
// `String` needs a cast that the compiler cannot check. That is the only kind of cast here: from
// a type to the very same type, so it assumes nothing about how any type is laid out, and the
// assumption (the check) is written once and asserted in debug builds.

/// `value` as `U`, for generic code that has checked that `T` is `U`.
///
/// The only cast a conformance check cannot replace cheaply: `value as! U` looks up runtime
/// metadata on every call, which the recorder's per-value fast paths cannot afford.
@inline(__always)
func knownCast<T, U>(_ value: T, to type: U.Type) -> U {
    assert(T.self == U.self, "knownCast from \(T.self) to \(U.self)")
    return unsafeBitCast(value, to: U.self)
}

/// The store's name for `knownCast` (a state read as the `StateMachine` type it was checked to be).
@inline(__always)
func unsafeCast<T, U>(_ value: T, to type: U.Type) -> U {
    knownCast(value, to: U.self)
}
