/// `value` as `Target`, which the caller has checked is `Value`'s own type (`Value.self ==
/// Target.self`): a plain move, where `value as! Target` would ask the runtime.
///
/// The one cast of its kind in the decoder. Generic code that has just compared types (`T.self
/// == String.self`, an array of `Decodable` found to be `[Element]`) hands its value back
/// through here; with the check made, the two static types are the same type and the bit
/// pattern is the value.
@inline(__always)
func knownTypeCast<Value, Target>(_ value: Value, to target: Target.Type) -> Target {
    assert(Value.self == Target.self, "knownTypeCast between different types")
    return unsafeBitCast(value, to: Target.self)
}
