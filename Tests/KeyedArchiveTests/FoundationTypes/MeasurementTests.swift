import Foundation
import Testing
@testable import KeyedArchive

@Suite("Measurement in the NSMeasurement/NSUnit layout")
struct MeasurementTests {
    @Test("NSKeyedUnarchiver reads our measurements as equal NSMeasurements")
    func foundationReadsUs() throws {
        let lengths = [Measurement(value: 45, unit: UnitLength.miles), Measurement(value: -0.5, unit: UnitLength.nanometers)]
        for value in lengths {
            for read in try foundationReads(value, as: NSMeasurement.self) {
                #expect(read.doubleValue == value.value)
                #expect(read.unit.symbol == value.unit.symbol)
                #expect(read.unit as? UnitLength == value.unit, "unit class and converter survive")
            }
        }
        let temperature = Measurement(value: 21.5, unit: UnitTemperature.celsius)
        for read in try foundationReads(temperature, as: NSMeasurement.self) {
            #expect(read.unit as? UnitTemperature == UnitTemperature.celsius)
            #expect(read.doubleValue == 21.5)
        }
        let mpg = Measurement(value: 30, unit: UnitFuelEfficiency.milesPerGallon)
        for read in try foundationReads(mpg, as: NSMeasurement.self) {
            let unit = try #require(read.unit as? UnitFuelEfficiency)
            #expect(unit.symbol == "mpg")
            #expect(abs(unit.converter.baseUnitValue(fromValue: 30) - UnitFuelEfficiency.milesPerGallon.converter.baseUnitValue(fromValue: 30)) < 1e-12)
        }
        let plain = Measurement(value: 3, unit: Unit(symbol: "widgets"))
        for read in try foundationReads(plain, as: NSMeasurement.self) {
            #expect(read.unit.symbol == "widgets")
            #expect(!(read.unit is Dimension))
        }
    }

    @Test("NSKeyedArchiver's NSMeasurement decodes as Measurement")
    func weReadFoundation() throws {
        let miles = Measurement(value: 45, unit: UnitLength.miles)
        #expect(try weRead(Measurement<UnitLength>.self, fromFoundationArchiveOf: NSMeasurement(doubleValue: 45, unit: UnitLength.miles)) == [miles, miles])
        let kelvin = try weRead(Measurement<UnitTemperature>.self, fromFoundationArchiveOf: NSMeasurement(doubleValue: 20, unit: UnitTemperature.celsius))
        #expect(kelvin.allSatisfy { $0.converted(to: .kelvin).value == 293.15 && $0.unit.symbol == "°C" })
        // Measurement<Unit> takes the archived class: a UnitLength comes back as one.
        let generic = try weRead(Measurement<Unit>.self, fromFoundationArchiveOf: NSMeasurement(doubleValue: 45, unit: UnitLength.miles))
        #expect(generic.allSatisfy { $0.unit is UnitLength && $0.unit.symbol == "mi" && $0.value == 45 })
        let widgets = try weRead(Measurement<Unit>.self, fromFoundationArchiveOf: NSMeasurement(doubleValue: 2, unit: Unit(symbol: "widgets")))
        #expect(widgets == [Measurement(value: 2, unit: Unit(symbol: "widgets")), Measurement(value: 2, unit: Unit(symbol: "widgets"))])
        let mpg = try weRead(Measurement<UnitFuelEfficiency>.self, fromFoundationArchiveOf: NSMeasurement(doubleValue: 30, unit: UnitFuelEfficiency.milesPerGallon))
        #expect(mpg.allSatisfy { abs($0.converted(to: .litersPer100Kilometers).value - Measurement(value: 30, unit: UnitFuelEfficiency.milesPerGallon).converted(to: .litersPer100Kilometers).value) < 1e-9 })
    }

    @Test("Apple's NSMeasurement-Length decodes as 45 mi", .requiresCorpus)
    func appleCorpus() throws {
        let data = try corpusData("apple/macos/NSMeasurement-Length.archive")
        let value = try ArchiveDecoder().decode(Measurement<UnitLength>.self, from: data)
        #expect(value == Measurement(value: 45, unit: UnitLength.miles))
        #expect(value.unit.symbol == "mi")
        #expect(value.converted(to: .meters).value == 45 * 1_609.34)
        let foundation = try #require(try foundationUnarchive(data) as? NSMeasurement)
        #expect(foundation.doubleValue == value.value && foundation.unit.symbol == value.unit.symbol)
    }

    @Test("Our archive has the object graph of Apple's, but for the predefined unit's NS.specifier", .requiresCorpus, .requiresPython3)
    func sameGraphAsApple() throws {
        let ours = try archive(Measurement(value: 45, unit: UnitLength.miles), format: .binary)
        let apple = try corpusData("apple/macos/NSMeasurement-Length.archive")
        #expect(try archivedGraph(ours, dropping: ["NS.specifier"]) == archivedGraph(apple, dropping: ["NS.specifier"]))
        #expect(try archivedGraph(ours).contains("\"NS.specifier\": 0"))
    }

    @Test("Round trip inside a struct, and deterministic")
    func roundTrip() throws {
        struct Run: Codable, Equatable {
            var distance: Measurement<UnitLength>
            var temperatures: [Measurement<UnitTemperature>]
            var effort: Measurement<Unit>
        }
        let run = Run(distance: .init(value: 10, unit: .kilometers),
                      temperatures: [.init(value: 12, unit: .celsius), .init(value: 54, unit: .fahrenheit)],
                      effort: .init(value: 7, unit: Unit(symbol: "RPE")))
        try expectRoundTrip(run)
    }

    @Test("A unit of another dimension, or another object, throws typeMismatch")
    func wrongClass() throws {
        expectTypeMismatch(Measurement<UnitMass>.self, from: try archive(Measurement(value: 1, unit: UnitLength.meters), format: .binary))
        expectTypeMismatch(Measurement<UnitLength>.self, from: try archive(Measurement(value: 1, unit: Unit(symbol: "x")), format: .binary))
        expectTypeMismatch(Measurement<UnitLength>.self, from: try archive(Date(timeIntervalSinceReferenceDate: 0), format: .binary))
        expectTypeMismatch(Measurement<UnitLength>.self, from: foundationArchive(NSIndexSet(index: 1)))
    }
}
