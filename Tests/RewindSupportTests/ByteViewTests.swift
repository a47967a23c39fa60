@_spi(RewindInternals) import RewindSupport
import Testing

/// `ByteView` is how the reading side passes lines and their members around: its offsets,
/// slices, searches and word loads must be those of the bytes it views, and in a debug build an
/// access outside them must stop the process rather than read another line's memory.
@Suite struct ByteViewTests {
    @Test func slicesCountFromTheirOwnStart() {
        let text = Array(#"{"store":"Cart"}"#.utf8)
        ByteView.withBytes(of: text) { line in
            #expect(line.count == text.count)
            let name = line[10..<14]
            #expect(name.count == 4)
            #expect(name[0] == UInt8(ascii: "C") && name[3] == UInt8(ascii: "t"))
            #expect(name.string == "Cart")
            #expect(name.equals("Cart") && !name.equals("Car") && !name.equals("Cars"))
            #expect(line.prefix(2).array == Array(#"{""#.utf8))
            #expect(line.suffix(from: 14).string == #""}"#)
            #expect(name[1..<3].string == "ar")
        }
    }

    @Test func firstIndexSearchesFromTheOffsetGiven() {
        ByteView.withBytes(of: Array("a\nbc\nd".utf8)) { bytes in
            #expect(bytes.firstIndex(of: 0x0A) == 1)
            #expect(bytes.firstIndex(of: 0x0A, from: 2) == 4)
            #expect(bytes.firstIndex(of: 0x0A, from: 5) == nil)
            #expect(bytes.firstIndex(of: 0x0A, from: bytes.count) == nil)
            // In a slice, the offset found is the slice's.
            #expect(bytes[2..<6].firstIndex(of: 0x0A) == 2)
        }
        #expect(ByteView.empty.firstIndex(of: 0x0A) == nil)
    }

    @Test func wordsAreLoadedInMemoryOrderAtAnyAlignment() {
        let bytes: [UInt8] = [0xFF, 1, 2, 3, 4, 5, 6, 7, 8, 0xEE]
        ByteView.withBytes(of: bytes) { view in
            #expect(UInt64(littleEndian: view.loadUnaligned(at: 1, as: UInt64.self)) == 0x0807_0605_0403_0201)
            #expect(UInt32(littleEndian: view.loadUnaligned(at: 6, as: UInt32.self)) == 0xEE08_0706)
            #expect(UInt32(littleEndian: view[2..<6].loadUnaligned(at: 0, as: UInt32.self)) == 0x0504_0302)
        }
    }

    @Test func equalityComparesBytesNotAddresses() {
        let one = Array("transition".utf8)
        let other = Array("xtransitionx".utf8)
        ByteView.withBytes(of: one) { a in
            ByteView.withBytes(of: other) { b in
                #expect(a.elementsEqual(b[1..<11]))
                #expect(!a.elementsEqual(b[0..<10]))
                #expect(!a.elementsEqual(b[1..<10]))
                #expect(a[0..<0].elementsEqual(ByteView.empty))
            }
        }
    }

    @Test func bytesAreAppendedAndTested() {
        var output = Array("> ".utf8)
        ByteView.withBytes(of: "héllo") { text in
            text.append(to: &output)
            #expect(!text.allSatisfy { $0 < 0x80 })
            #expect(text[0..<1].allSatisfy { $0 < 0x80 })
        }
        #expect(String(decoding: output, as: UTF8.self) == "> héllo")
        var untouched: [UInt8] = [1]
        ByteView.empty.append(to: &untouched)
        #expect(untouched == [1])
        #expect(ByteView.empty.isEmpty && ByteView.empty.string.isEmpty)
    }

    @Test func typedErrorsPassThroughTheLending() {
        struct Refused: Error, Equatable { let count: Int }
        #expect(throws: Refused(count: 3)) {
            try ByteView.withBytes(of: [1, 2, 3]) { (view) throws(Refused) in throw Refused(count: view.count) }
        }
    }

    #if DEBUG
        // Bounds are asserted in debug builds only (release builds keep the scanners' loops free
        // of checks), so these run where the assertions are compiled in.

        @Test func aByteOutsideTheViewStopsTheProcess() async {
            await #expect(processExitsWith: .failure) {
                let text = Array("line one\nline two".utf8)
                ByteView.withBytes(of: text) { bytes in
                    let first = bytes[0..<8]
                    _ = first[8]  // the `\n` after the slice: memory, but not the view's
                }
            }
        }

        @Test func aSliceOrWordPastTheEndStopsTheProcess() async {
            await #expect(processExitsWith: .failure) {
                ByteView.withBytes(of: Array("abc".utf8)) { bytes in _ = bytes[1..<4] }
            }
            await #expect(processExitsWith: .failure) {
                ByteView.withBytes(of: Array("abcdefg".utf8)) { bytes in
                    _ = bytes.loadUnaligned(at: 0, as: UInt64.self)
                }
            }
        }
    #endif
}
