#!/usr/bin/env bash
# The manual (docs/, mkdocs.yml) builds as a site with `mkdocs build --strict` (a link to a missing page
# fails), every link of the site and of the README resolves, sections included (check_site_links.py), and
# what the README and the site both show is the same: the two commands (docs/index.md) and "Reading a
# verdict" (docs/reports.md), the README's links to docs/<page>.md read as <page>.md. First, on fixture
# sites, each check fails where it must: a link to a missing page, to a missing section, a README link to a
# missing section.
#   test_docs_site.sh SITE_DIR   (the site is written there, replacing what was there)
# Exit 77 (skipped) without mkdocs: bash scripts/install_deps.sh --with-lint installs it (Debian's mkdocs).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
site=${1:?usage: test_docs_site.sh SITE_DIR}
command -v mkdocs >/dev/null 2>&1 ||
  { echo "SKIPPED: mkdocs is not installed: bash scripts/install_deps.sh --with-lint (Debian's package mkdocs)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: python3 is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
# check <description> <command...>: passes when the command succeeds. Its output goes to $work/out; the
# previous check's moves to $work/previous, which `says` reads.
check() {
  mv -f "$work/out" "$work/previous" 2>/dev/null
  if "${@:2}" >"$work/out" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1"
    sed 's/^/    /' "$work/out"
  fi
}
fails() { ! "$@"; }
says() { grep -F -- "$1" "$work/previous" || { echo "not in the output:"; cat "$work/previous"; false; }; }
links() { python3 "$here/check_site_links.py" "$@"; }
build() {  # build <project folder> <site folder>
  (cd "$1" && mkdocs build --strict --quiet -d "$2")
}

# A fixture site: one page that links to another, and a README beside docs/.
fixture() {  # fixture <name> <index.md's text> [README.md's text]
  local dir="$work/$1"
  mkdir -p "$dir/docs"
  printf 'site_name: fixture\ndocs_dir: docs\nuse_directory_urls: false\nnav:\n  - index.md\n  - other.md\n' >"$dir/mkdocs.yml"
  printf '# Fixture\n\n%s\n' "$2" >"$dir/docs/index.md"
  printf '# Other\n\n## A section\n\nText.\n' >"$dir/docs/other.md"
  printf '# Readme\n\n%s\n' "${3:-}" >"$dir/README.md"
}
# shellcheck disable=SC2016  # backquotes of a Markdown code span, not an expansion
fixture good '[a section](other.md#a-section)' '[a section](docs/other.md#a-section), `[code](docs/none.md)`'
check "a fixture site with good links builds" build "$work/good" "$work/good/site"
check "its links resolve" links "$work/good/site" "$work/good/README.md"
fixture missing-page '[gone](gone.md)'
check "a link to a missing page fails the strict build" fails build "$work/missing-page" "$work/missing-page/site"
fixture missing-section '[a section](other.md#renamed)'
check "a fixture site with a link to a missing section builds (MkDocs 1.4 does not check sections)" \
  build "$work/missing-section" "$work/missing-section/site"
check "the link to a missing section fails the link check" fails links "$work/missing-section/site"
check "and is named" says "index.html: other.html#renamed -> no section #renamed in other.html"
fixture readme-section '[a section](other.md#a-section)' '[moved](docs/other.md#moved)'
build "$work/readme-section" "$work/readme-section/site" || echo "FAIL: the readme-section fixture did not build"
check "a README link to a missing section fails" fails links "$work/readme-section/site" "$work/readme-section/README.md"
check "and is named" says "README.md: docs/other.md#moved -> no section #moved in other.html"

# The manual itself.
rm -rf "$site"
check "mkdocs build --strict of docs/" build "$root" "$site"
check "every link of the site and of the README resolves" links "$site" "$root/README.md"

# section <file> <heading>: the lines under a level-2 heading, up to the next one (trailing blanks dropped).
section() {
  awk -v heading="$2" '$0 == heading { inside = 1; next } inside && /^## / { exit } inside' "$1" |
    sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
readme_as_docs() { section "$root/README.md" "$1" | sed 's|](docs/|](|g'; }
check "the README has its two commands where this test looks" grep -F -- "--preset ci" <(readme_as_docs "## Two commands")
check "the README has its verdicts where this test looks" grep -F "| SLOW |" <(readme_as_docs "## Reading a verdict")
# shellcheck disable=SC2016  # the backquotes of a Markdown fence, not an expansion
bash_block() { sed -n '/^```bash$/,/^```$/p'; }
check "docs/index.md shows the README's two commands" \
  diff <(readme_as_docs "## Two commands" | bash_block) <(section "$root/docs/index.md" "## Two commands" | bash_block)
check "docs/reports.md shows the README's \"Reading a verdict\"" \
  diff <(readme_as_docs "## Reading a verdict") <(section "$root/docs/reports.md" "## Reading a verdict")

echo "$passed passed, $failed failed"
((failed == 0))
