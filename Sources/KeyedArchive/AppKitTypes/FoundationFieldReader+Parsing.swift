import Foundation

extension FoundationFieldReader {
    /// Charges the parsing of `count` bytes of a field's text or packed numbers (a colour's
    /// components, an attributed string's run table) to the decoder's work budget, as the
    /// making of that many bytes. Charged on every parse, so a long value shared by many
    /// objects costs its length each time it is read and cannot get round the budget.
    func chargeParsing(_ count: Int) throws {
        try decoder.reading(slot, path) { try decoder.chargeMade(bytes: count) }
    }
}
