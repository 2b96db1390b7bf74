#!/usr/bin/env python3
"""Checks that every link of a built DocC site resolves to a page of the site.

    python3 Scripts/check-doc-links.py .build/docs

DocC itself refuses unresolved symbol and article links, but it can still write links to
pages it never generates (a breadcrumb to an extended module's page, for instance), and it
passes Markdown links to relative paths through unchanged, though the site has no such
files. This script reads the site's page data (data/**/*.json) and checks, on every page:

- every reference with a site-internal `url` (topics, breadcrumbs, See Also…): the page
  exists, as data/<url>.json and <url>/index.html;
- every breadcrumb (`hierarchy.paths`) and every inline reference: it is among the page's
  references;
- every inline Markdown link: it is absolute (http, https, mailto) or a path within the site
  that exists. A relative link such as `Sources/X.md` leads nowhere on the site.

It also checks that the site's root, index.html, redirects (a `<meta http-equiv="refresh">`)
to a page that exists, so that the site's address leads to the documentation.

Prints one line per broken link (the page, then the link) and exits with status 1 when
there is any; 0 otherwise. Uses only the standard library.
"""
import json
import os
import re
import sys
from urllib.parse import urlsplit

EXTERNAL_SCHEMES = ("http", "https", "mailto")


def page_exists(site, url):
    """Whether a site-internal URL (/documentation/…) has its data and its HTML page."""
    path = urlsplit(url).path.rstrip("/")
    if not path:
        return True
    data = os.path.join(site, "data", path.lstrip("/") + ".json")
    html = os.path.join(site, path.lstrip("/"), "index.html")
    return os.path.isfile(data) and os.path.isfile(html)


def inline_nodes(value):
    """Every dictionary in a page's content, without recursion (pages can nest deeply)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            yield item
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


def check_page(site, page_file):
    """The broken links of one page, as (page, link, reason) triples."""
    with open(page_file, encoding="utf-8") as handle:
        page = json.load(handle)
    name = os.path.relpath(page_file, os.path.join(site, "data"))
    references = page.get("references", {})
    problems = []

    def check_url(url, what):
        scheme = urlsplit(url).scheme
        if scheme in EXTERNAL_SCHEMES:
            return
        if scheme or not url.startswith("/"):
            if not url.startswith("#"):
                problems.append((name, url, what + " is a relative or unknown link, which leads nowhere on the site"))
            return
        if not page_exists(site, url):
            problems.append((name, url, what + " leads to a page that does not exist"))

    for identifier, reference in sorted(references.items()):
        url = reference.get("url")
        if url is not None and reference.get("type") in ("topic", "link", "section"):
            check_url(url, "reference " + identifier)

    for path in page.get("hierarchy", {}).get("paths", []):
        for identifier in path:
            if identifier not in references:
                problems.append((name, identifier, "breadcrumb has no reference"))

    for node in inline_nodes({k: v for k, v in page.items() if k != "references"}):
        kind = node.get("type")
        if kind == "reference" and isinstance(node.get("identifier"), str):
            if node["identifier"] not in references:
                problems.append((name, node["identifier"], "inline reference has no target"))
        elif kind == "link" and isinstance(node.get("destination"), str):
            check_url(node["destination"], "link")
    return problems


def check_root(site):
    """The problems of the site's root page: it must redirect to an existing page."""
    root = os.path.join(site, "index.html")
    if not os.path.isfile(root):
        return [("index.html", "-", "the site has no root page")]
    with open(root, encoding="utf-8") as handle:
        text = handle.read()
    match = re.search(r'http-equiv="refresh"\s+content="0;\s*url=([^"]+)"', text)
    if not match:
        return [("index.html", "-", "the root page does not redirect to the documentation")]
    target = match.group(1)
    if urlsplit(target).scheme or target.startswith("/") or not page_exists(site, "/" + target):
        return [("index.html", target, "the root page redirects to no page of the site")]
    return []


def main(argv):
    if len(argv) != 2:
        print("usage: check-doc-links.py SITE_DIRECTORY", file=sys.stderr)
        return 2
    site = argv[1]
    data = os.path.join(site, "data")
    if not os.path.isdir(data):
        print(f"error: {data} not found: not a DocC site built with --transform-for-static-hosting", file=sys.stderr)
        return 2
    pages = []
    for root, _, files in os.walk(data):
        pages += [os.path.join(root, f) for f in files if f.endswith(".json")]
    problems = check_root(site)
    for page_file in sorted(pages):
        problems += check_page(site, page_file)
    for page, link, reason in problems:
        print(f"error: {page}: {link}: {reason}", file=sys.stderr)
    if problems:
        print(f"error: {len(problems)} broken link(s) in {len(pages)} pages", file=sys.stderr)
        return 1
    print(f"== Links: every link of {len(pages)} pages resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
