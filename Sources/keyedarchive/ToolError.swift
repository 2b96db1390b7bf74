/// A failure that ends a command with exit status 1 and a message on standard error.
struct ToolError: Error {
    let message: String

    init(_ message: String) { self.message = message }

    /// A failure about one file: the message starts with its name.
    init(file: String, _ message: String) { self.message = "\(file): \(message)" }
}
