/// A cart whose items move (issue 20, item 7): the lines A, B, C and MUG, each with an `id`;
/// MUG's quantity set to 2, A and B removed (MUG moves from index 3 to 1), MUG's quantity set
/// to 3. Who set the quantity that step 5 changed is step 2; followed by position
/// (`lines[1].quantity`), the answer would be step 4, the removal of B, an unrelated action.
public enum MovingItemsTrace {
    /// The store's state at each step from 1 to 5.
    public static let states = [
        #"{"lines":[{"id":"A","quantity":1},{"id":"B","quantity":1},{"id":"C","quantity":5},{"id":"MUG","quantity":1}]}"#,
        #"{"lines":[{"id":"A","quantity":1},{"id":"B","quantity":1},{"id":"C","quantity":5},{"id":"MUG","quantity":2}]}"#,
        #"{"lines":[{"id":"B","quantity":1},{"id":"C","quantity":5},{"id":"MUG","quantity":2}]}"#,
        #"{"lines":[{"id":"C","quantity":5},{"id":"MUG","quantity":2}]}"#,
        #"{"lines":[{"id":"C","quantity":5},{"id":"MUG","quantity":3}]}"#,
    ]

    /// The action of each step from 2 to 5.
    public static let actions = ["setQuantity", "remove", "remove", "setQuantity"]

    /// The version 1 trace, header first, one line a string.
    public static var lines: [String] {
        var lines = [#"{"type":"header","format":"rewind-trace","version":1,"machines":{}}"#]
        lines.append(#"{"type":"register","seq":1,"elapsed":0,"store":"CartStore","state":\#(states[0])}"#)
        for (offset, action) in actions.enumerated() {
            let seq = offset + 2
            lines.append(
                #"{"type":"transition","seq":\#(seq),"elapsed":\#(seq),"store":"CartStore","action":"\#(action)","changed":true,"state":\#(states[seq - 1]),"source":"Cart.swift:\#(seq * 10)"}"#
            )
        }
        return lines
    }
}
