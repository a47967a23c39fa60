/// Makes the `KeyedDecodingContainer`s of `JSONTapeDecoder`, through a function kept for each
/// key type.
///
/// Making a `KeyedDecodingContainer<Key>` in code generic over `Key` costs runtime lookups of
/// the metadata of `JSONTapeKeyedContainer<Key>` and of its conformance, besides the box the
/// standard library allocates: together more than decoding a small struct's members. A state
/// decodes the same few key types over and over, so for each the decoder keeps a function,
/// made once by `wrapping(_:)`, whose context holds what those lookups found; later containers
/// of that key type are made by calling it. (Each call still makes a new container: whether an
/// earlier one is still in use cannot be known without reading the standard library's private
/// layout.)
///
/// Each function is kept in a `Maker<Key>` object, under the common superclass `AnyMaker`;
/// once an entry's key type has been found equal to `Key`, its object is a `Maker<Key>`, and
/// `unsafeDowncast` (a class downcast, checked in debug builds) reads it as one without a
/// runtime lookup. At most `limit` key types are kept; others get a container made directly.
struct JSONTapeContainerMakers: ~Copyable {
    static let limit = 64

    /// The common superclass of the kept functions, whatever their key type.
    class AnyMaker {}

    /// The function that makes the containers of key type `Key`.
    final class Maker<Key: CodingKey>: AnyMaker {
        let make: (JSONTapeDecoder, Int) -> KeyedDecodingContainer<Key>

        init(_ make: @escaping (JSONTapeDecoder, Int) -> KeyedDecodingContainer<Key>) { self.make = make }
    }

    private var types = JSONBuffer<ObjectIdentifier>(capacity: 16)
    /// The functions, at the index of their key type.
    private var makers = JSONBuffer<AnyMaker>(capacity: 16)

    /// A new keyed container of `decoder` for `slot`.
    @inline(__always)
    mutating func container<Key: CodingKey>(_ type: Key.Type, decoder: JSONTapeDecoder, slot: Int)
        -> KeyedDecodingContainer<Key>
    {
        let id = ObjectIdentifier(Key.self)
        var index = 0
        while index < types.count {
            if types[index] == id { return unsafeDowncast(makers[index], to: Maker<Key>.self).make(decoder, slot) }
            index &+= 1
        }
        return newMaker(Key.self)(decoder, slot)
    }

    /// The function for `Key`, made and kept (unless `limit` key types are kept already).
    @inline(never)
    private mutating func newMaker<Key: CodingKey>(
        _ type: Key.Type
    ) -> (JSONTapeDecoder, Int) -> KeyedDecodingContainer<Key> {
        let make: (JSONTapeDecoder, Int) -> KeyedDecodingContainer<Key> = Self.wrapping {
            JSONTapeKeyedContainer<Key>(decoder: $0, slot: $1)
        }
        if types.count < Self.limit {
            types.append(ObjectIdentifier(Key.self))
            makers.append(Maker(make))
        }
        return make
    }

    /// `make`, with its result wrapped in a `KeyedDecodingContainer`. Generic over the whole
    /// container type (not over `Key` alone), so that the function's context holds
    /// `Container`'s metadata and conformance, found once, here; and over `Key` too, so that
    /// `Container.Key` is not looked up either. Not inlined, so that the optimizer cannot rewrite
    /// it in terms of `Key` alone and bring the lookups back into every call.
    @inline(never)
    private static func wrapping<Key, Container: KeyedDecodingContainerProtocol>(
        _ make: @escaping (JSONTapeDecoder, Int) -> Container
    ) -> (JSONTapeDecoder, Int) -> KeyedDecodingContainer<Key> where Container.Key == Key {
        { KeyedDecodingContainer(make($0, $1)) }
    }
}
