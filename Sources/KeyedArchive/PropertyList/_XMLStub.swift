enum XMLPropertyListReader { static func read(_ bytes: [UInt8], maxDepth: Int = 512) throws -> PropertyListValue { throw PropertyListError("xml stub") } }
enum XMLPropertyListWriter { static func write(_ value: PropertyListValue) -> [UInt8] { [] } }
