// Every reinterpreting cast of the Recorder module, in one place.
//
// Generic code that has just checked `T.self == String.self` still holds a `T`; reading it as a
// `String` needs a cast that the compiler cannot check. A few other places reinterpret a value as
// another type with the same layout (a keyed container as the box it holds, a function as a
// function of another result type). Each such cast is here, named for what it assumes, so that
// the assumption is written once and checked in debug builds.

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

/// The one class reference that a `KeyedEncodingContainer` is (it wraps a box the standard
/// library allocates). Callers check first that the container is exactly one reference wide.
@inline(__always)
func boxReference<Container>(of container: Container) -> AnyObject {
    assert(MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size)
    return withUnsafePointer(to: container) { UnsafeRawPointer($0).load(as: AnyObject.self) }
}

/// A function that returns `box` seen as the container it is the box of (the reverse of
/// `boxReference(of:)`), with `Container`'s metadata captured once, here.
func containerView<Container>(ofBox box: AnyObject, as: Container.Type) -> () -> Container {
    { unsafeBitCast(box, to: Container.self) }
}

/// A function with its result type erased: every function value has the same representation
/// whatever its signature, and `() -> R` returns `R` indirectly when `R` is resilient or
/// generic, as `Any` is, so no reabstraction thunk is involved. Read it back only with
/// `restoringResult(of:as:)` at the very type it had.
@inline(__always)
func erasingResult<R>(of function: @escaping () -> R) -> () -> Any {
    unsafeBitCast(function, to: (() -> Any).self)
}

/// The reverse of `erasingResult(of:)`; `R` must be the type the function was made with.
@inline(__always)
func restoringResult<R>(of function: @escaping () -> Any, as: R.Type) -> () -> R {
    unsafeBitCast(function, to: (() -> R).self)
}
