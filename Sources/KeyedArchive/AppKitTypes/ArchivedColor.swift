import Foundation

/// A colour as AppKit's `NSColor` and UIKit's `UIColor` archive it: its colour space and
/// components, read without AppKit or UIKit (so also on Linux).
///
/// Decoding reads every keyed layout the two classes write (see
/// <doc:AppKitAndUIKitValues>); encoding writes the layout `NSColor` writes on Apple's
/// platforms, so a colour read from a nib or a `.clr` file is written back field for field.
///
/// ```swift
/// struct Theme: Codable {
///     var accent: ArchivedColor
/// }
/// let theme = try ArchiveDecoder().decode(Theme.self, from: data)
/// print(theme.accent.space, theme.accent.components, theme.accent.hexRGBA ?? "")
/// let red = ArchivedColor(space: .calibratedRGB, components: [1, 0, 0], alpha: 1)
/// ```
public struct ArchivedColor: Sendable, Hashable, Codable {
    /// The colour space a colour's components are in.
    ///
    /// ```swift
    /// if case .catalog(let catalog, let name, _) = color.space { print(catalog, name) }
    /// ```
    public indirect enum Space: Sendable, Hashable, Codable {
        /// Calibrated (generic) RGB: `NSColorSpace` 1, components red, green, blue.
        case calibratedRGB
        /// Device RGB: `NSColorSpace` 2, components red, green, blue.
        case deviceRGB
        /// Calibrated white: `NSColorSpace` 3, one component (white).
        case calibratedWhite
        /// Device white: `NSColorSpace` 4, one component (white).
        case deviceWhite
        /// Device CMYK: `NSColorSpace` 5, components cyan, magenta, yellow, black.
        case deviceCMYK
        /// sRGB (`NSCustomColorSpace` with `NSID` 7): red, green, blue.
        case sRGB
        /// Generic gray gamma 2.2 (`NSCustomColorSpace` with `NSID` 9): one component.
        case genericGray
        /// Another colour space given by an `NSColorSpace` object (see ``ArchivedColor/colorSpace``),
        /// such as Display P3 (``ArchivedColorSpace/isDisplayP3``).
        case custom
        /// A named colour of a catalog (`NSColorSpace` 6): catalog and colour name, and the
        /// colour it stands for when the catalog is not available.
        case catalog(catalog: String, name: String, fallback: ArchivedColor?)
        /// A pattern colour (`NSColorSpace` 10): its `NSImage` is kept as archived in
        /// ``ArchivedColor/patternImage``, not interpreted, and written back as it was.
        case pattern
    }

    /// The colour space of ``components``.
    public var space: Space
    /// The components in ``space``, without alpha (empty for a catalog colour).
    public var components: [Double]
    /// The opacity, 0 to 1.
    public var alpha: Double
    /// The `NSColorSpace` object of a colour in an ICC-based space (sRGB, generic gray,
    /// custom): its identifier, model and ICC profile bytes, kept to be written back.
    public var colorSpace: ArchivedColorSpace?
    /// For a colour in an ICC-based space: the calibrated approximation AppKit writes
    /// beside the exact components (`NSRGB` or `NSWhite` with `NSColorSpace` 1 or 3), for
    /// readers that predate colour spaces. `nil` writes ``components`` there.
    public var approximation: [Double]?
    /// For a pattern colour: its `NSImage` as archived, written back as it was.
    public var patternImage: ArchivedRawValue?

    /// A colour from its space, components (without alpha) and alpha.
    ///
    /// ```swift
    /// let gray = ArchivedColor(space: .calibratedWhite, components: [0.5], alpha: 1)
    /// ```
    public init(space: Space, components: [Double], alpha: Double = 1,
                colorSpace: ArchivedColorSpace? = nil, approximation: [Double]? = nil, patternImage: ArchivedRawValue? = nil) {
        self.space = space
        self.components = components
        self.alpha = alpha
        self.colorSpace = colorSpace
        self.approximation = approximation
        self.patternImage = patternImage
    }

    /// `#RRGGBBAA` for a colour in an RGB or white space with components in 0…1
    /// (white repeats its one component); `nil` for CMYK, catalog, custom and pattern colours.
    ///
    /// ```swift
    /// ArchivedColor(space: .sRGB, components: [1, 0.5, 0], alpha: 1).hexRGBA   // "#FF8000FF"
    /// ```
    public var hexRGBA: String? {
        let rgb: [Double]
        switch space {
        case .calibratedRGB, .deviceRGB, .sRGB:
            guard components.count == 3 else { return nil }
            rgb = components
        case .calibratedWhite, .deviceWhite, .genericGray:
            guard components.count == 1 else { return nil }
            rgb = [components[0], components[0], components[0]]
        case .deviceCMYK, .custom, .catalog, .pattern:
            return nil
        }
        var text = "#"
        for value in rgb + [alpha] {
            guard value >= 0, value <= 1 else { return nil }
            let byte = Int((value * 255).rounded())
            text += String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
        return text
    }
}

/// An `NSColorSpace` object as archived: its identifier (`NSID`, or `NSSpaceID` in
/// SceneKit files), colour model (`NSModel`) and ICC profile (`NSICC`).
///
/// ```swift
/// if let space = color.colorSpace { print(space.identifier ?? -1, space.iccProfile?.count ?? 0) }
/// ```
public struct ArchivedColorSpace: Sendable, Hashable, Codable {
    /// AppKit's identifier of a system colour space (7 sRGB, 9 generic gray gamma 2.2).
    public var identifier: Int?
    /// The colour model (`NSModel`), when archived.
    public var model: Int?
    /// The ICC profile bytes.
    public var iccProfile: Data?
    /// Whether the identifier is archived as `NSSpaceID` (as in SceneKit scenes) rather
    /// than `NSID`.
    public var usesSpaceIDKey: Bool
    /// How the profile is archived.
    public var iccProfileStorage: ProfileStorage

    /// Whether this is Display P3: AppKit archives it with its ICC profile only, and the
    /// profile's description names it "Display P3".
    ///
    /// ```swift
    /// if color.space == .custom, color.colorSpace?.isDisplayP3 == true { print("P3", color.components) }
    /// ```
    public var isDisplayP3: Bool {
        identifier == nil && (iccProfile.map(ICCProfileName.isDisplayP3) ?? false)
    }

    /// How an ``ArchivedColorSpace``'s ICC profile is archived, kept so that it is written
    /// back as it was read.
    ///
    /// ```swift
    /// let space = ArchivedColorSpace(identifier: 7, model: nil, iccProfile: profile, iccProfileStorage: .inline)
    /// ```
    public enum ProfileStorage: Sendable, Hashable, Codable {
        /// An `NSMutableData` object with `NS.data`: what AppKit writes in most files.
        case mutableData
        /// An `NSMutableData` object with `NS.bytes`: what SceneKit's archiver writes.
        case mutableDataBytes
        /// Plain data in `$objects` (older colour lists and attributed strings).
        case inline
    }

    /// A colour space from its archived fields.
    ///
    /// ```swift
    /// let sRGB = ArchivedColorSpace(identifier: 7, model: nil, iccProfile: nil)
    /// ```
    public init(identifier: Int?, model: Int?, iccProfile: Data?, usesSpaceIDKey: Bool = false,
                iccProfileStorage: ProfileStorage = .mutableData) {
        self.identifier = identifier
        self.model = model
        self.iccProfile = iccProfile
        self.usesSpaceIDKey = usesSpaceIDKey
        self.iccProfileStorage = iccProfileStorage
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
