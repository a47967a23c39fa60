import Testing

@testable import SampleApp

@Suite struct ShopCommandTests {
    @Test(arguments: [
        ("refresh", ShopCommand.refresh),
        ("add SHIRT", .add(sku: "SHIRT", quantity: 1)),
        ("  ADD   shirt   3 ", .add(sku: "SHIRT", quantity: 3)),
        ("add sku_9-x 99", .add(sku: "SKU_9-X", quantity: 99)),
        ("remove hat", .remove(sku: "HAT")),
        ("checkout", .checkout),
        ("Pay", .pay),
        ("undo", .undo),
        ("wish hat", .wish(sku: "HAT")),
        ("UNWISH Mug", .unwish(sku: "MUG")),
        ("wait", .wait(ticks: nil)),
        ("wait 4", .wait(ticks: 4)),
        ("help", .help),
        ("quit", .quit),
        ("q", .quit),
    ])
    func parses(line: String, command: ShopCommand) throws {
        #expect(try ShopCommand(parsing: line) == command)
    }

    @Test(arguments: [
        ShopCommand.refresh, .add(sku: "SHIRT", quantity: 1), .add(sku: "MUG", quantity: 7), .remove(sku: "HAT"),
        .checkout, .pay, .undo, .wish(sku: "HAT"), .unwish(sku: "MUG"), .wait(ticks: nil), .wait(ticks: 3), .help,
        .quit,
    ])
    func describesItselfAsTheLineThatParsesBack(command: ShopCommand) throws {
        #expect(try ShopCommand(parsing: command.description) == command)
    }

    @Test(arguments: [
        ("", "type a command"),
        ("dance", "unknown command 'dance'"),
        ("add", "usage: add SKU [QTY]"),
        ("add SHIRT 0", "QTY must be a whole number from 1 to 99, not '0'"),
        ("add SHIRT 100", "QTY must be a whole number from 1 to 99"),
        ("add SHIRT two", "not 'two'"),
        ("add SHIRT 1 2", "usage: add SKU [QTY]"),
        ("add sh!rt", "'sh!rt' is not a SKU"),
        ("add ÉTÉ", "is not a SKU"),
        ("add \(String(repeating: "A", count: 33))", "is not a SKU"),
        ("remove", "usage: remove SKU"),
        ("wish", "usage: wish SKU"),
        ("unwish HAT MUG", "usage: unwish SKU"),
        ("wish h@t", "'h@t' is not a SKU"),
        ("refresh now", "'refresh' takes no arguments"),
        ("wait 0", "TICKS must be a whole number from 1 to 100"),
        ("wait 1 2", "usage: wait [TICKS]"),
    ])
    func explainsWhatIsWrong(line: String, message: String) {
        #expect {
            try ShopCommand(parsing: line)
        } throws: { error in
            (error as? CommandError)?.message.contains(message) == true
        }
    }

    @Test func escapesControlCharactersInItsMessages() {
        #expect {
            try ShopCommand(parsing: "\u{1B}[2J")
        } throws: { error in
            let message = (error as? CommandError)?.message ?? ""
            return !message.contains("\u{1B}") && message.contains("\\u{1b}[2J")
        }
    }
}
