"""Checks the links a built MkDocs site and a README hold, anchors included: MkDocs 1.4's --strict fails
on a link to a page that does not exist, but not on a link to a section that does not (a heading renamed,
a section moved to another page). Needs only Python's standard library.

  check_site_links.py SITE_DIR [README.md]

Every <a href> of every page of SITE_DIR that points inside the site must name a file of the site, and its
#fragment an id of that page. Every relative Markdown link of README.md must name a file beside it; one
into docs/<page>.md is checked as the site's <page>.html, its #fragment included. Prints one line per
broken link (file: link -> what is wrong); exit 0 all resolve, 1 some do not, 2 bad usage.
"""
import html.parser
import os
import re
import sys
import urllib.parse


class _Page(html.parser.HTMLParser):
    """The ids and the link targets of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "a" and attributes.get("name"):
            self.ids.add(attributes["name"])
        if tag == "a" and attributes.get("href") is not None:
            self.hrefs.append(attributes["href"])


def _external(href):
    parts = urllib.parse.urlsplit(href)
    return bool(parts.scheme or parts.netloc)


class Site:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.pages = {}
        for folder, _, files in os.walk(self.root):
            for name in files:
                if name.endswith(".html"):
                    path = os.path.join(folder, name)
                    page = _Page()
                    with open(path, encoding="utf-8") as f:
                        page.feed(f.read())
                    self.pages[path] = page

    def resolve(self, base_dir, href):
        """What is wrong with a link from a page in base_dir, or None."""
        parts = urllib.parse.urlsplit(href)
        path = urllib.parse.unquote(parts.path)
        if path.startswith("/"):  # 404.html links from the site's root, wherever it is served
            base_dir, path = self.root, path.lstrip("/")
        target = os.path.realpath(os.path.join(base_dir, path)) if path else None
        if target is not None and os.path.isdir(target):
            target = os.path.join(target, "index.html")
        return target, urllib.parse.unquote(parts.fragment)

    def check_target(self, target, fragment, page_path):
        if target is None:
            target = page_path
        if not os.path.exists(target):
            return "no such file in the site"
        if fragment and target.endswith(".html"):
            if fragment not in self.pages[target].ids:
                return "no section #%s in %s" % (fragment, os.path.relpath(target, self.root))
        return None


def check_site(site):
    problems = []
    for path, page in sorted(site.pages.items()):
        for href in page.hrefs:
            if _external(href) or href in ("", "#"):
                continue
            target, fragment = site.resolve(os.path.dirname(path), href)
            wrong = site.check_target(target, fragment, path)
            if wrong:
                problems.append("%s: %s -> %s" % (os.path.relpath(path, site.root), href, wrong))
    return problems


_MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def check_readme(site, readme):
    problems = []
    base = os.path.dirname(os.path.realpath(readme))
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    # Code blocks and spans hold no links.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    for href in _MARKDOWN_LINK.findall(text):
        if _external(href) or href.startswith("#"):
            continue
        parts = urllib.parse.urlsplit(href)
        path = urllib.parse.unquote(parts.path)
        if not os.path.exists(os.path.join(base, path)):
            problems.append("%s: %s -> no such file" % (readme, href))
            continue
        if path.startswith("docs/") and path.endswith(".md"):
            page = os.path.join(site.root, path[len("docs/"):-len(".md")] + ".html")
            wrong = site.check_target(os.path.realpath(page), urllib.parse.unquote(parts.fragment), page)
            if wrong:
                problems.append("%s: %s -> %s" % (readme, href, wrong))
    return problems


def main(argv):
    if len(argv) not in (2, 3) or not os.path.isdir(argv[1]):
        print("usage: check_site_links.py SITE_DIR [README.md]", file=sys.stderr)
        return 2
    site = Site(argv[1])
    if not site.pages:
        print("%s holds no HTML page: build the site first" % argv[1], file=sys.stderr)
        return 2
    problems = check_site(site)
    if len(argv) == 3:
        problems += check_readme(site, argv[2])
    for problem in problems:
        print(problem)
    print("links: %d pages checked, %d broken" % (len(site.pages), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
