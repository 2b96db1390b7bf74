import Foundation

// Archives written by Foundation's NSKeyedArchiver for `keyedarchive swift`. This file
// uses Foundation only: Scripts/check-generated-code.sh compiles it into the program that
// writes the archives it generates code for, so the tests and the script share one set.
// On Linux, NSCoding classes must be top-level classes.

/// A person with optional and varying fields; `friend` makes cycles and shared objects.
final class CodegenPerson: NSObject, NSCoding {
    var name: String
    var age: Int
    var nickname: String?
    var friend: CodegenPerson?

    init(name: String, age: Int, nickname: String? = nil) {
        self.name = name
        self.age = age
        self.nickname = nickname
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(age, forKey: "age")
        if let nickname { coder.encode(nickname as NSString, forKey: "nickname") }
        coder.encode(friend, forKey: "friend")
    }

    required init?(coder: NSCoder) { nil }
}

/// A base class and two subclasses, for superclass chains and heterogeneous arrays.
class CodegenShape: NSObject, NSCoding {
    let label: String
    init(label: String) { self.label = label }
    func encode(with coder: NSCoder) { coder.encode(label as NSString, forKey: "label") }
    required init?(coder: NSCoder) { nil }
}

final class CodegenCircle: CodegenShape {
    let radius: Double
    init(label: String, radius: Double) {
        self.radius = radius
        super.init(label: label)
    }
    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(radius, forKey: "radius")
    }
    required init?(coder: NSCoder) { nil }
}

final class CodegenSquare: CodegenShape {
    let side: Int
    let filled: Bool
    init(label: String, side: Int, filled: Bool) {
        self.side = side
        self.filled = filled
        super.init(label: label)
    }
    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(side, forKey: "side")
        coder.encode(filled, forKey: "filled")
    }
    required init?(coder: NSCoder) { nil }
}

/// Foundation's value kinds, and keys that are not Swift identifiers. (No NSDecimalNumber:
/// Linux Foundation's archiver recurses without end hashing one.)
final class CodegenRecord: NSObject, NSCoding {
    override init() {}
    required init?(coder: NSCoder) { nil }

    func encode(with coder: NSCoder) {
        coder.encode("text" as NSString, forKey: "NS.string")
        coder.encode(7, forKey: "$count")
        coder.encode("spaced" as NSString, forKey: "first name")
        coder.encode(true, forKey: "class")
        coder.encode(1, forKey: "self")
        coder.encode("on" as NSString, forKey: "default")
        coder.encode(NSDate(timeIntervalSinceReferenceDate: 700_000_000), forKey: "created")
        coder.encode(URL(string: "https://example.com/a").map { $0 as NSURL }, forKey: "homepage")
        coder.encode(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F").map { $0 as NSUUID }, forKey: "id")
        coder.encode(NSData(data: Data([1, 2, 3])), forKey: "bytes")
        coder.encode(2.5, forKey: "ratio")
        coder.encode(["a", "b"] as NSArray, forKey: "tags")
        coder.encode(NSSet(array: [1, 2, 3]), forKey: "numbers")
        coder.encode(["x": 1, "y": 2] as NSDictionary, forKey: "scores")
        coder.encode(NSArray(), forKey: "empty")
        coder.encode(nil as Any?, forKey: "nothing")
    }
}

/// A tree node whose children point back to it: `parent` and `children`, as a view's
/// superview and subviews.
final class CodegenNode: NSObject, NSCoding {
    let name: String
    let children: [CodegenNode]
    weak var parent: CodegenNode?

    init(name: String, children: [CodegenNode] = []) {
        self.name = name
        self.children = children
        super.init()
        for child in children { child.parent = self }
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(children as NSArray, forKey: "children")
        coder.encode(parent, forKey: "parent")
    }

    required init?(coder: NSCoder) { nil }
}

/// A menu whose items point back to it (`menu`), and may open a submenu (`submenu`, which
/// is no back edge though menus hold items).
final class CodegenMenu: NSObject, NSCoding {
    let title: String
    var items: [CodegenMenuItem] = []

    init(title: String) { self.title = title }

    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(items as NSArray, forKey: "items")
    }

    required init?(coder: NSCoder) { nil }
}

final class CodegenMenuItem: NSObject, NSCoding {
    let title: String
    weak var menu: CodegenMenu?
    var submenu: CodegenMenu?

    init(title: String, in menu: CodegenMenu, submenu: CodegenMenu? = nil) {
        self.title = title
        self.menu = menu
        self.submenu = submenu
        super.init()
        menu.items.append(self)
    }

    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(menu, forKey: "menu")
        coder.encode(submenu, forKey: "submenu")
    }

    required init?(coder: NSCoder) { nil }
}

/// A view whose `subviews` list views that point back to it (`nextResponder`), as AppKit's
/// `NSSubviews` and `NSNextResponder`.
final class CodegenView: NSObject, NSCoding {
    let subviews: [CodegenView]
    weak var nextResponder: CodegenView?

    init(subviews: [CodegenView] = []) {
        self.subviews = subviews
        super.init()
        for view in subviews { view.nextResponder = self }
    }

    func encode(with coder: NSCoder) {
        coder.encode(subviews as NSArray, forKey: "subviews")
        coder.encode(nextResponder, forKey: "nextResponder")
    }

    required init?(coder: NSCoder) { nil }
}

/// A panel that names a subview (`activeView`) beside the view that owns it (`rootView`):
/// decoded by name, the subview is reached first, then its owner through `nextResponder`,
/// whose `subviews` list the subview still being decoded.
final class CodegenPanel: NSObject, NSCoding {
    let rootView: CodegenView
    let activeView: CodegenView

    init(rootView: CodegenView, activeView: CodegenView) {
        self.rootView = rootView
        self.activeView = activeView
    }

    func encode(with coder: NSCoder) {
        coder.encode(rootView, forKey: "rootView")
        coder.encode(activeView, forKey: "activeView")
    }

    required init?(coder: NSCoder) { nil }
}

enum CodegenFixtures {
    /// The archives, by file name.
    static func all() throws -> [(name: String, data: Data)] {
        [
            ("foundation-shared.archive", try shared()),
            ("foundation-cycle.archive", try cycle()),
            ("foundation-chain.archive", try chain()),
            ("foundation-shapes.archive", try shapes()),
            ("foundation-record.archive", try archive(CodegenRecord())),
            ("foundation-dictionaries.archive", try dictionaries()),
            ("foundation-top-keys.archive", try topKeys()),
            ("foundation-one-key.archive", try oneKey()),
            ("foundation-tree.archive", try archive(tree())),
            ("foundation-tree-from-leaf.archive", try treeFromLeaf()),
            ("foundation-menus.archive", try menus()),
            ("foundation-responders.archive", try responders()),
        ]
    }

    static func archive(_ root: Any) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
    }

    /// Ada is in the array twice and is Grace's friend: one object, three references.
    static func shared() throws -> Data {
        let ada = CodegenPerson(name: "Ada", age: 36, nickname: "Countess")
        let grace = CodegenPerson(name: "Grace", age: 85)
        grace.friend = ada
        return try archive(NSArray(array: [ada, grace, ada]))
    }

    /// A root with two children, the first with a child of its own: every node but the
    /// root has a `parent`. (Archived from a leaf, the nodes above it are held only by
    /// `parent` edges.)
    static func tree() -> CodegenNode {
        CodegenNode(name: "root", children: [
            CodegenNode(name: "a", children: [CodegenNode(name: "a1")]),
            CodegenNode(name: "b"),
        ])
    }

    /// ``tree()`` archived from its leaf `a1`: `a` and `root` are reached only through
    /// `parent`.
    static func treeFromLeaf() throws -> Data {
        let root = tree()
        return try withExtendedLifetime(root) { try archive(root.children[0].children[0]) }
    }

    /// A main menu with two items, one of which opens a submenu with one item; the array
    /// `[main, submenu]` holds both menus.
    static func menus() throws -> Data {
        let main = CodegenMenu(title: "Main")
        let submenu = CodegenMenu(title: "Edit")
        _ = CodegenMenuItem(title: "Copy", in: submenu)
        _ = CodegenMenuItem(title: "About", in: main)
        _ = CodegenMenuItem(title: "Edit", in: main, submenu: submenu)
        return try archive(NSArray(array: [main, submenu]))
    }

    /// A panel whose `activeView` is a subview of its `rootView`.
    static func responders() throws -> Data {
        let active = CodegenView()
        return try archive(CodegenPanel(rootView: CodegenView(subviews: [active, CodegenView()]), activeView: active))
    }

    /// Ada and Grace are each other's friend.
    static func cycle() throws -> Data {
        let ada = CodegenPerson(name: "Ada", age: 36)
        let grace = CodegenPerson(name: "Grace", age: 85)
        ada.friend = grace
        grace.friend = ada
        return try archive(ada)
    }

    /// Ada's friend is Grace, whose friend is Alan: no object shared, but a type that
    /// holds itself.
    static func chain() throws -> Data {
        let ada = CodegenPerson(name: "Ada", age: 36)
        let grace = CodegenPerson(name: "Grace", age: 85)
        ada.friend = grace
        grace.friend = CodegenPerson(name: "Alan", age: 41)
        return try archive(ada)
    }

    /// Circles and squares in one array.
    static func shapes() throws -> Data {
        try archive(NSArray(array: [
            CodegenCircle(label: "sun", radius: 1.5), CodegenSquare(label: "box", side: 2, filled: true),
            CodegenCircle(label: "moon", radius: 0.5),
        ]))
    }

    /// A dictionary of mixed values (a record), holding an array of dictionaries whose keys vary.
    static func dictionaries() throws -> Data {
        let rows: NSArray = [
            ["id": 1, "title": "one"] as NSDictionary,
            ["id": 2, "title": "two", "note": "second"] as NSDictionary,
        ]
        return try archive(["name": "list", "count": 2, "rows": rows, "weights": [0.5, 1] as NSArray] as NSDictionary)
    }

    /// `$top` with two keys and no `root`, one of them escaped by Foundation (`$$tag`).
    static func topKeys() throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(CodegenPerson(name: "Ada", age: 36), forKey: "first")
        archiver.encode("tagged" as NSString, forKey: "$tag")
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// `$top` with one key that is not `root`.
    static func oneKey() throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(["one", "two"] as NSArray, forKey: "names")
        archiver.finishEncoding()
        return archiver.encodedData
    }
}
