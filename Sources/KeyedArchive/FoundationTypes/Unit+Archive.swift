import Foundation

// NSUnit and its converters, as NSMeasurement's `NS.unit` holds them. A unit is
// `{NS.symbol}`; a dimension (NSUnitLength, NSUnitTemperature, …) adds `NS.specifier` and
// `NS.converter`, an NSUnitConverterLinear `{NS.coefficient, NS.constant}` or an
// NSUnitConverterReciprocal `{NS.reciprocal}`. The class entry is the unit's own class.

enum ArchivedUnit {
    /// Foundation's dimension classes, by archived class name (`NSUnitLength`).
    static let dimensions: [String: Dimension.Type] = {
        var types: [Dimension.Type] = [
            UnitAcceleration.self, UnitAngle.self, UnitArea.self, UnitConcentrationMass.self, UnitDispersion.self,
            UnitDuration.self, UnitElectricCharge.self, UnitElectricCurrent.self, UnitElectricPotentialDifference.self,
            UnitElectricResistance.self, UnitEnergy.self, UnitFrequency.self, UnitFuelEfficiency.self,
            UnitIlluminance.self, UnitLength.self, UnitMass.self, UnitPower.self, UnitPressure.self, UnitSpeed.self,
            UnitTemperature.self, UnitVolume.self,
        ]
        if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) { types.append(UnitInformationStorage.self) }
        return Dictionary(types.map { (NSStringFromClass($0), $0) }, uniquingKeysWith: { first, _ in first })
    }()

    // MARK: Writing

    /// Writes `unit` as an object of its own class and returns its UID.
    static func encode(_ unit: Unit, with encoder: _ArchiveEncoder, at path: CodingPathNode) throws -> Int32 {
        let names = encoder.table.classNames(forInstanceOf: type(of: unit))
        guard let dimension = unit as? Dimension else {
            return encoder.foundationObject(named: names) { $0.string("NS.symbol", unit.symbol) }
        }
        let converter = try encode(dimension.converter, of: dimension, with: encoder, at: path)
        return encoder.foundationObject(named: names) { fields in
            fields.string("NS.symbol", unit.symbol)
            // Apple writes the index of a predefined unit here, 0 for any other; readers
            // rebuild the unit from the symbol and converter either way.
            fields.integer("NS.specifier", 0)
            fields.object("NS.converter", uid: converter)
        }
    }

    private static func encode(_ converter: UnitConverter, of unit: Dimension, with encoder: _ArchiveEncoder,
                               at path: CodingPathNode) throws -> Int32 {
        let names = converter is ReciprocalConverter
            ? ReciprocalConverter.archivedNames : encoder.table.classNames(forInstanceOf: type(of: converter))
        if let linear = converter as? UnitConverterLinear {
            return encoder.foundationObject(named: names) { fields in
                fields.real("NS.coefficient", linear.coefficient)
                fields.real("NS.constant", linear.constant)
            }
        }
        if names.name == ReciprocalConverter.archivedNames.name {
            // Foundation's private reciprocal converter: value = reciprocal / base value.
            let reciprocal = converter.baseUnitValue(fromValue: 1)
            return encoder.foundationObject(named: names) { $0.real("NS.reciprocal", reciprocal) }
        }
        throw EncodingError.invalidValue(unit, EncodingError.Context(
            codingPath: path.path,
            debugDescription: "The unit '\(unit.symbol)' uses a \(names.name), which NSKeyedArchiver's layout cannot describe; only linear and reciprocal converters can be archived"))
    }

    // MARK: Reading

    /// Reads the NSUnit at `slot` as a `UnitType`. The archived class decides the Swift
    /// class: a Foundation dimension (NSUnitLength → UnitLength), the requested dimension
    /// type, or a plain `Unit`; a unit of another dimension throws `typeMismatch`.
    static func decode<UnitType: Unit>(_ type: UnitType.Type, from decoder: _ArchiveDecoder, slot: ArchiveSlot,
                                       at path: CodingPathNode) throws -> UnitType {
        guard case .uid(let uid) = slot, uid != 0 else {
            throw decoder.valueNotFound(UnitType.self, at: path)
        }
        return try decoder.withObject(uid, at: path) {
            let fields = try decoder.foundationFields(UnitType.self, classes: ["NSUnit"], at: slot, path: path)
            let chain = try decoder.archivedClass(of: slot, at: path)
            let symbol = try fields.requiredValue(String.self, "NS.symbol")
            guard let chain, chain.classes.contains("NSDimension") else {
                // A plain NSUnit: `Unit` or a subclass that is not a dimension can hold it
                // (a dimension cannot be made from a symbol alone).
                guard !(UnitType.self is Dimension.Type) else {
                    throw decoder.classMismatch(UnitType.self, found: chain, slot: slot, at: path)
                }
                return UnitType(symbol: symbol)
            }
            let dimensionType = try dimensionClass(UnitType.self, chain: chain, decoder: decoder, slot: slot, path: path)
            let converter = try decodeConverter(from: try fields.required("NS.converter"), decoder: decoder, at: fields.path("NS.converter"))
            guard let unit = dimensionType.init(symbol: symbol, converter: converter) as? UnitType else {
                throw decoder.classMismatch(UnitType.self, found: chain, slot: slot, at: path)
            }
            return unit
        }
    }

    /// The Swift class to build for an archived dimension `chain` requested as `UnitType`.
    private static func dimensionClass<UnitType: Unit>(_ type: UnitType.Type, chain: ArchivedClassChain,
                                                       decoder: _ArchiveDecoder, slot: ArchiveSlot,
                                                       path: CodingPathNode) throws -> Dimension.Type {
        let archived = chain.classes.lazy.compactMap { dimensions[$0] }.first
        if let requested = UnitType.self as? Dimension.Type, requested != Dimension.self {
            // A specific dimension: the archive must be one (or a subclass of one).
            let requestedName = NSStringFromClass(requested)
            guard chain.classes.contains(requestedName) || archived.map({ $0 == requested }) == true else {
                throw decoder.classMismatch(UnitType.self, found: chain, slot: slot, at: path)
            }
            return requested
        }
        // `Unit` or `Dimension`: the archived Foundation dimension, else a bare Dimension.
        return archived ?? Dimension.self
    }

    private static func decodeConverter(from slot: ArchiveSlot, decoder: _ArchiveDecoder, at path: CodingPathNode) throws -> UnitConverter {
        guard case .uid(let uid) = slot, uid != 0 else {
            throw decoder.valueNotFound(UnitConverter.self, at: path)
        }
        return try decoder.withObject(uid, at: path) {
            let fields = try decoder.foundationFields(UnitConverter.self, classes: ["NSUnitConverter"], at: slot, path: path)
            let chain = try decoder.archivedClass(of: slot, at: path)
            if chain?.classes.contains("NSUnitConverterLinear") == true {
                return UnitConverterLinear(coefficient: try fields.requiredDouble("NS.coefficient"),
                                           constant: try fields.double("NS.constant") ?? 0)
            }
            if chain?.name == ReciprocalConverter.archivedNames.name, let reciprocal = try fields.double("NS.reciprocal") {
                return ReciprocalConverter(reciprocal: reciprocal)
            }
            throw decoder.classMismatch(UnitConverter.self, found: chain, slot: slot, at: path)
        }
    }
}

/// value = reciprocal / base value, as Foundation's private NSUnitConverterReciprocal.
final class ReciprocalConverter: UnitConverter, @unchecked Sendable {
    let reciprocal: Double

    init(reciprocal: Double) {
        self.reciprocal = reciprocal
        super.init()
    }

    override func baseUnitValue(fromValue value: Double) -> Double { reciprocal / value }
    override func value(fromBaseUnitValue baseUnitValue: Double) -> Double { reciprocal / baseUnitValue }

    override func isEqual(_ object: Any?) -> Bool { (object as? ReciprocalConverter)?.reciprocal == reciprocal }
    override var hash: Int { reciprocal.hashValue }

    /// Foundation's class name for it.
    static let archivedNames = (name: "NSUnitConverterReciprocal", classes: ["NSUnitConverterReciprocal", "NSUnitConverter", "NSObject"])
}
