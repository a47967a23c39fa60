@_spi(RewindInternals) internal import RewindSupport
@_spi(RewindInternals) internal import ToolSupport

/// One command of the shop, as the shopper types it (`add SHIRT 2`) or a scenario lists it.
enum ShopCommand: Equatable, Sendable, CustomStringConvertible {
    /// Loads the catalog again; after a failure, retries.
    case refresh
    /// Puts `quantity` of `sku` in the cart.
    case add(sku: String, quantity: Int)
    /// Takes `sku` out of the cart.
    case remove(sku: String)
    /// Calculates the order's totals.
    case checkout
    /// Pays the total.
    case pay
    /// Saves `sku` on the wishlist, for later.
    case wish(sku: String)
    /// Takes `sku` off the wishlist.
    case unwish(sku: String)
    /// Puts back the cart as it was before its last change.
    case undo
    /// Lets `ticks` ticks of simulated time pass, or with `nil`, until the network has answered.
    case wait(ticks: Int?)
    /// Shows the commands.
    case help
    /// Leaves the app.
    case quit

    /// The longest a `wait` may be.
    static let maximumWait = 100

    /// What `help` prints.
    static let reference = """
        Commands, one per line (each takes one tick of simulated time):
          refresh          load the catalog again, or retry after a failure
          add SKU [QTY]    put QTY (1-99, default 1) of SKU in the cart
          remove SKU       take SKU out of the cart
          checkout         calculate subtotal, tax and total
          pay              pay the total
          wish SKU         save SKU on the wishlist, for later
          unwish SKU       take SKU off the wishlist
          undo             put the cart back as it was before its last change
          wait [TICKS]     let TICKS ticks pass (1-100), or by default until the network answers
          help             show this list
          quit             leave (so does the end of the input)
        """

    /// Parses one command line. Words are separated by spaces; the command and the SKU are read
    /// in any case (`add shirt` is `add SHIRT`).
    init(parsing line: String) throws(CommandError) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first else {
            throw CommandError("type a command, or 'help' for the list")
        }
        let arguments = Array(words.dropFirst())
        switch first.lowercased() {
        case "refresh":
            try Self.expectNoArguments(arguments, first)
            self = .refresh
        case "checkout":
            try Self.expectNoArguments(arguments, first)
            self = .checkout
        case "pay":
            try Self.expectNoArguments(arguments, first)
            self = .pay
        case "undo":
            try Self.expectNoArguments(arguments, first)
            self = .undo
        case "help", "?":
            try Self.expectNoArguments(arguments, first)
            self = .help
        case "quit", "exit", "q":
            try Self.expectNoArguments(arguments, first)
            self = .quit
        case "add":
            guard (1...2).contains(arguments.count) else {
                throw CommandError("usage: add SKU [QTY], for example: add SHIRT 2")
            }
            let quantity =
                try arguments.count == 2 ? Self.number(arguments[1], what: "QTY", in: 1...CartLine.maximumQuantity) : 1
            self = .add(sku: try Self.sku(arguments[0]), quantity: quantity)
        case "remove":
            guard arguments.count == 1 else {
                throw CommandError("usage: remove SKU, for example: remove SHIRT")
            }
            self = .remove(sku: try Self.sku(arguments[0]))
        case "wish", "unwish":
            guard arguments.count == 1 else {
                throw CommandError("usage: \(first.lowercased()) SKU, for example: \(first.lowercased()) HAT")
            }
            let sku = try Self.sku(arguments[0])
            self = first.lowercased() == "wish" ? .wish(sku: sku) : .unwish(sku: sku)
        case "wait":
            guard arguments.count <= 1 else { throw CommandError("usage: wait [TICKS]") }
            self = .wait(
                ticks: try arguments.first.map { word throws(CommandError) in
                    try Self.number(word, what: "TICKS", in: 1...Self.maximumWait)
                })
        default:
            throw CommandError("unknown command '\(TerminalText.safe(first))'; type 'help' for the list")
        }
    }

    /// The command line that parses back to this command.
    var description: String {
        switch self {
        case .refresh: "refresh"
        case .add(let sku, let quantity): quantity == 1 ? "add \(sku)" : "add \(sku) \(quantity)"
        case .remove(let sku): "remove \(sku)"
        case .checkout: "checkout"
        case .pay: "pay"
        case .wish(let sku): "wish \(sku)"
        case .unwish(let sku): "unwish \(sku)"
        case .undo: "undo"
        case .wait(let ticks): ticks.map { "wait \($0)" } ?? "wait"
        case .help: "help"
        case .quit: "quit"
        }
    }

    /// The longest a SKU may be.
    static let maximumSKULength = 32

    /// `word` in upper case, if it is a SKU: 1 to 32 ASCII letters, digits, `-` or `_`.
    private static func sku(_ word: String) throws(CommandError) -> String {
        let valid =
            word.utf8.count <= maximumSKULength
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
                        || scalar == "_")
            }
        guard valid else {
            throw CommandError(
                "'\(TerminalText.safe(word))' is not a SKU: use up to \(maximumSKULength) letters, digits, '-' or '_', like SHIRT"
            )
        }
        return word.uppercased()
    }

    private static func number(_ word: String, what: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        guard let value = Int(word), range.contains(value) else {
            throw CommandError(
                "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(TerminalText.safe(word))'"
            )
        }
        return value
    }

    private static func expectNoArguments(_ arguments: [String], _ command: String) throws(CommandError) {
        guard arguments.isEmpty else {
            throw CommandError("'\(command.lowercased())' takes no arguments")
        }
    }
}
