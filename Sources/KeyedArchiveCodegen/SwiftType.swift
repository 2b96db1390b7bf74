/// A type in the generated code: a type the generator declares, one of a fixed list of
/// standard-library and Foundation types, or a collection of them. Nothing else can be
/// spelled in a type position.
package indirect enum SwiftType: Hashable, Sendable {
    /// A type this file declares.
    case declared(SwiftIdentifier)
    case foundation(FoundationType)
    case array(SwiftType)
    case set(SwiftType)
    case dictionary(key: SwiftType, value: SwiftType)
    case optional(SwiftType)

    /// The source text.
    var source: String {
        switch self {
        case .declared(let name): return name.source
        case .foundation(let type): return type.spelling
        case .array(let element): return "[" + element.source + "]"
        case .set(let element): return "Set<" + element.source + ">"
        case .dictionary(let key, let value): return "[" + key.source + ": " + value.source + "]"
        case .optional(let wrapped): return wrapped.source + "?"
        }
    }

    /// Whether `name` appears anywhere in the type.
    func mentions(_ name: SwiftIdentifier) -> Bool {
        switch self {
        case .declared(let declared): return declared == name
        case .foundation: return false
        case .array(let inner), .set(let inner), .optional(let inner): return inner.mentions(name)
        case .dictionary(let key, let value): return key.mentions(name) || value.mentions(name)
        }
    }
}

/// The standard-library and Foundation types the generated code may name, a fixed list:
/// the value types the decoder reads and the Measurement units Foundation declares.
package struct FoundationType: Hashable, Sendable {
    /// The spelling, from the lists below only.
    package let spelling: String
    /// The type name without generic arguments (`Measurement` for `Measurement<UnitLength>`).
    package let baseName: String

    private init(_ spelling: StaticString, base: StaticString? = nil) {
        self.spelling = spelling.description
        self.baseName = (base ?? spelling).description
    }

    private init(measurementOf unit: String) {
        spelling = "Measurement<" + unit + ">"
        baseName = "Measurement"
    }

    package static let bool = FoundationType("Bool")
    package static let int = FoundationType("Int")
    package static let uint64 = FoundationType("UInt64")
    package static let int128 = FoundationType("Int128")
    package static let uint128 = FoundationType("UInt128")
    package static let double = FoundationType("Double")
    package static let string = FoundationType("String")
    package static let data = FoundationType("Data")
    package static let date = FoundationType("Date")
    package static let url = FoundationType("URL")
    package static let uuid = FoundationType("UUID")
    package static let decimal = FoundationType("Decimal")
    package static let indexSet = FoundationType("IndexSet")
    package static let indexPath = FoundationType("IndexPath")
    package static let timeZone = FoundationType("TimeZone")
    package static let locale = FoundationType("Locale")
    package static let cgPoint = FoundationType("CGPoint")
    package static let cgSize = FoundationType("CGSize")
    package static let cgRect = FoundationType("CGRect")
    package static let nsRange = FoundationType("NSRange")
    package static let archivedColor = FoundationType("ArchivedColor")
    package static let archivedFont = FoundationType("ArchivedFont")
    package static let archivedParagraphStyle = FoundationType("ArchivedParagraphStyle")
    /// A measurement whose unit is no Foundation dimension class listed in ``unitNames``.
    package static let measurement = FoundationType("Measurement<Dimension>", base: "Measurement")

    /// Foundation's `Dimension` subclasses, as NSMeasurement's unit names them without
    /// their `NS` prefix (`NSUnitLength` is `UnitLength`).
    package static let unitNames: [String] = [
        "UnitAcceleration", "UnitAngle", "UnitArea", "UnitConcentrationMass", "UnitDispersion", "UnitDuration",
        "UnitElectricCharge", "UnitElectricCurrent", "UnitElectricPotentialDifference", "UnitElectricResistance",
        "UnitEnergy", "UnitFrequency", "UnitFuelEfficiency", "UnitIlluminance", "UnitInformationStorage",
        "UnitLength", "UnitMass", "UnitPower", "UnitPressure", "UnitSpeed", "UnitTemperature", "UnitVolume",
    ]

    /// `Measurement<UnitLength>` for the unit class `NSUnitLength`; `Measurement<Dimension>`
    /// for any class not in ``unitNames``.
    package static func measurement(unitClass: String?) -> FoundationType {
        guard let unitClass, unitClass.hasPrefix("NS"), let unit = unitNames.first(where: { $0 == unitClass.dropFirst(2) }) else {
            return measurement
        }
        return FoundationType(measurementOf: unit)
    }

    /// Every type name the list can spell, generic arguments included: a generated type
    /// must not take any of them.
    package static let names: Set<String> = Set([
        bool, int, uint64, int128, uint128, double, string, data, date, url, uuid, decimal, indexSet, indexPath,
        timeZone, locale, cgPoint, cgSize, cgRect, nsRange, archivedColor, archivedFont, archivedParagraphStyle,
    ].map(\.baseName) + unitNames + ["Measurement", "Dimension"])
}
