"""The independent reader (plistlib only) for the AppKit/UIKit value tests.

  appkit_objects.py list CORPUS_ROOT FOLDER...
      Every NSColor/UIColor, NSFont/UIFont, NSParagraphStyle and NSAttributedString object
      (subclasses included) in the keyed archives under the folders, and in keyed archives
      nested in their data fields (SceneKit and Instruments keep colours as archived data),
      as a JSON list: where it is, its layout (class and sorted field keys), the values
      read from its raw fields here, and its fields as canonical JSON (references followed).

  appkit_objects.py graph FILE...
      The root object of each archive, its fields as canonical JSON: a JSON list.

Canonical JSON: references followed, `$class` as the class chain, data as {"data": hex},
reals as {"real": repr}, an NSDictionary's entries as a sorted list of pairs (their order
in the file is a hash order).
"""
import json
import os
import plistlib
import sys

KINDS = [("color", ("NSColor", "UIColor")), ("font", ("NSFont", "UIFont")),
         ("paragraphStyle", ("NSParagraphStyle",)), ("attributedString", ("NSAttributedString",))]


def uid(value):
    if isinstance(value, plistlib.UID):
        return value.data
    if isinstance(value, dict) and list(value.keys()) == ["CF$UID"]:
        return value["CF$UID"]
    return None


class Archive:
    def __init__(self, plist):
        self.objects = plist["$objects"]
        self.top = plist["$top"]

    def deref(self, value):
        u = uid(value)
        return value if u is None else (None if u == 0 else self.objects[u])

    def classes(self, obj):
        if not isinstance(obj, dict) or "$class" not in obj:
            return []
        return self.objects[uid(obj["$class"])].get("$classes", [])

    def tree(self, value, depth=0):
        if depth > 64:
            raise SystemExit("too deep")
        u = uid(value)
        if u is not None:
            return None if u == 0 else self.tree(self.objects[u], depth + 1)
        if isinstance(value, dict):
            if "NS.keys" in value and "NS.objects" in value:
                pairs = [[self.tree(k, depth + 1), self.tree(v, depth + 1)]
                         for k, v in zip(value["NS.keys"], value["NS.objects"])]
                pairs.sort(key=lambda p: json.dumps(p, sort_keys=True))
                out = {"entries": pairs}
                if "$class" in value:
                    out["$class"] = self.classes(value)
                return out
            return {k: (self.classes(value) if k == "$class" else self.tree(v, depth + 1)) for k, v in value.items()}
        if isinstance(value, list):
            return [self.tree(v, depth + 1) for v in value]
        if isinstance(value, bytes):
            return {"data": value.hex()}
        if isinstance(value, float):
            return {"real": repr(value)}
        return value

    def field_graphs(self, obj):
        return {k: json.dumps(self.tree(v) if k != "$class" else self.classes(obj), sort_keys=True)
                for k, v in obj.items()}

    # The values Apple wrote, read from the raw fields.

    def text(self, value):
        value = self.deref(value)
        if isinstance(value, dict):
            value = self.deref(value.get("NS.string", value.get("NS.bytes")))
        return value.decode("utf-8") if isinstance(value, bytes) else value

    def data(self, value):
        value = self.deref(value)
        if isinstance(value, dict):
            value = self.deref(value.get("NS.data", value.get("NS.bytes")))
        return value

    @staticmethod
    def numbers(raw):
        return [float(t) for t in raw.split(b"\0")[0].split()]

    def color(self, obj):
        space = obj.get("NSColorSpace")
        if space is None:
            if "UIWhite" in obj:
                out = {"space": "deviceWhite", "components": [obj["UIWhite"]], "alpha": obj.get("UIAlpha", 1.0)}
            else:
                out = {"space": "sRGB", "components": [obj.get(k, 0.0) for k in ("UIRed", "UIGreen", "UIBlue")],
                       "alpha": obj.get("UIAlpha", 1.0)}
            if "UISystemColorName" in obj:
                return {"space": "catalog", "catalog": "UIKit", "name": self.text(obj["UISystemColorName"]), "fallback": out}
            return out
        if space == 6:
            fallback = self.deref(obj.get("NSColor"))
            return {"space": "catalog", "catalog": self.text(obj["NSCatalogName"]), "name": self.text(obj["NSColorName"]),
                    "fallback": self.color(fallback) if fallback is not None else None}
        key = {3: "NSWhite", 4: "NSWhite", 5: "NSCMYK"}.get(space, "NSRGB")
        count = {1: 3, 2: 3, 3: 1, 4: 1, 5: 4}[space]
        legacy = self.numbers(self.data(obj[key]))
        if "NSComponents" in obj:
            exact = self.numbers(self.data(obj["NSComponents"]))
            cs = self.deref(obj["NSCustomColorSpace"])
            ident = cs.get("NSID", cs.get("NSSpaceID"))
            icc = self.data(cs.get("NSICC")) or b""
            name = {7: "sRGB", 9: "genericGray"}.get(ident)
            if name is None:
                name = "custom"
            return {"space": name, "components": exact[:-1], "alpha": exact[-1], "approximation": legacy[:count],
                    "identifier": ident, "iccBytes": len(icc)}
        names = {1: "calibratedRGB", 2: "deviceRGB", 3: "calibratedWhite", 4: "deviceWhite", 5: "deviceCMYK"}
        return {"space": names[space], "components": legacy[:count], "alpha": legacy[count] if len(legacy) > count else 1.0}

    def font(self, obj):
        if "NSName" in obj:
            return {"name": self.text(obj["NSName"]), "size": obj["NSSize"], "flags": obj.get("NSfFlags", 16)}
        return {"name": self.text(obj["UIFontName"]), "size": obj["UIFontPointSize"], "flags": 16}

    def paragraph_style(self, obj):
        tabs = self.deref(obj.get("NSTabStops"))
        locations = None if tabs is None else [self.deref(t)["NSLocation"] for t in map(self.deref, tabs["NS.objects"])]
        return {"alignment": obj.get("NSAlignment"), "tabStops": locations,
                "isMutable": "NSMutableParagraphStyle" in self.classes(obj)}

    def attributed_string(self, obj):
        string = self.text(obj["NSString"])
        length = len(string.encode("utf-16-le")) // 2
        attributes = self.deref(obj.get("NSAttributes"))
        if attributes is None:
            return {"string": string, "runs": []}
        if "NSAttributeInfo" not in obj:
            return {"string": string, "runs": [[0, length, sorted(self.text(k) for k in attributes["NS.keys"])]]}
        table = [self.deref(d) for d in attributes["NS.objects"]]
        info, numbers, value, shift = self.data(obj["NSAttributeInfo"]), [], 0, 0
        for byte in info:
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                numbers.append(value)
                value, shift = 0, 0
        runs, start = [], 0
        for run_length, index in zip(numbers[0::2], numbers[1::2]):
            runs.append([start, run_length, sorted(self.text(k) for k in table[index]["NS.keys"])])
            start += run_length
        return {"string": string, "runs": runs}


def scan(archive, file, nested, records):
    for index, obj in enumerate(archive.objects):
        if isinstance(obj, dict):
            for key, value in obj.items():
                if isinstance(value, bytes) and value[:8] == b"bplist00":
                    try:
                        inner = plistlib.loads(value)
                    except Exception:
                        continue
                    if isinstance(inner, dict) and "$objects" in inner:
                        if nested is not None:
                            raise SystemExit("archives nested two deep are not listed")
                        scan(Archive(inner), file, [index, key], records)
        classes = archive.classes(obj)
        kind = next((name for name, bases in KINDS if any(b in classes for b in bases)), None)
        if kind is None:
            continue
        read = {"color": archive.color, "font": archive.font, "paragraphStyle": archive.paragraph_style,
                "attributedString": archive.attributed_string}[kind]
        layout = "%s{%s}" % (classes[0], ",".join(sorted(k for k in obj if k != "$class")))
        if "NSColorSpace" in obj:
            layout += " NSColorSpace=%d" % obj["NSColorSpace"]
        records.append({"file": file, "nested": nested, "index": index, "kind": kind, "layout": layout,
                        "expected": read(obj), "fields": archive.field_graphs(obj)})


def main():
    mode = sys.argv[1]
    if mode == "list":
        root, records = sys.argv[2], []
        for folder in sys.argv[3:]:
            for directory, _, names in sorted(os.walk(os.path.join(root, folder))):
                for name in sorted(names):
                    path = os.path.join(directory, name)
                    try:
                        with open(path, "rb") as f:
                            plist = plistlib.load(f)
                    except Exception:
                        continue
                    if isinstance(plist, dict) and "$objects" in plist:
                        scan(Archive(plist), os.path.relpath(path, root), None, records)
        print(json.dumps(records, sort_keys=True))
    else:
        graphs = []
        for path in sys.argv[2:]:
            with open(path, "rb") as f:
                archive = Archive(plistlib.load(f))
            graphs.append(archive.field_graphs(archive.deref(archive.top["root"])))
        print(json.dumps(graphs, sort_keys=True))


main()
