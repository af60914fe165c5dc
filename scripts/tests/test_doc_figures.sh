#!/usr/bin/env bash
# The figures the README and the manual quote (how long the main command takes, a pull request's check, the
# verdict example...) are those of docs/results.md's "Latest figures" table, and the README stays within 200
# lines. A page marks what quotes figures with a line
#   <!-- figures from docs/results.md: main_h100 pr_check -->
# above a paragraph (up to the next blank line) or a fenced code block (up to its closing fence); each key
# named there must be a row of the table whose figure that text holds verbatim (whitespace runs and line
# breaks count as one space), and each page a row lists under "quoted in" must mark that key. First, on
# copies of the pages, each check fails where it must: every quoted figure changed in turn, the table's
# figure changed, a mark removed, an unknown key, a figure inside a longer number, a README of 201 lines.
#   test_doc_figures.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
readonly kReadmeMaxLines=200  # the README is a front door of a screen or two; the manual is docs/
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# doc_figures_table <root>: one line a row of the table, "<line>\t<key>\t<figure>\t<quoted in>", the
# figure without the backquotes of a code span that is the whole cell.
doc_figures_table() {
  awk -F'|' '
    /^## / { inside = ($0 == "## Latest figures"); next }
    !inside || $0 !~ /^\| `[a-z0-9_]+` \|/ { next }
    {
      for (i = 2; i <= 7; i++) { gsub(/^ +| +$/, "", $i) }
      key = $2; gsub(/`/, "", key)
      figure = $4
      if (figure ~ /^`.*`$/) figure = substr(figure, 2, length(figure) - 2)
      printf "%d\t%s\t%s\t%s\n", NR, key, figure, $7
    }' "$1/docs/results.md"
}

# doc_figures_marks <root>: one line a key a mark names, "<page>\t<mark line>\t<last line>\t<key>\t<text>",
# the text being what the mark covers with its whitespace runs made one space. Pages: README.md as
# README.md, docs/<page>.md as <page>.md (the names the table's "quoted in" uses).
doc_figures_marks() {
  local page name
  for page in "$1/README.md" "$1"/docs/*.md; do
    [[ $page == */docs/results.md ]] && continue
    name=${page##*/}
    awk -v page="$name" '
      function flush(   n, keys, i) {
        n = split(marked, keys, " ")
        for (i = 1; i <= n; i++) printf "%s\t%d\t%d\t%s\t%s\n", page, mark_line, last, keys[i], text
        marked = ""
      }
      marked == "" && match($0, /^<!-- figures from docs\/results\.md: [a-z0-9_ ]+ -->$/) {
        marked = $0
        sub(/^<!-- figures from docs\/results\.md: /, "", marked); sub(/ -->$/, "", marked)
        if (marked ~ /^ *$/) marked = ""
        mark_line = NR; last = NR; text = ""; fenced = 0; first = 1
        next
      }
      marked != "" {
        if (first && /^```/) fenced = 1
        else if (fenced && /^```/) { last = NR; flush(); next }
        else if (!fenced && /^[[:space:]]*$/) { flush(); next }
        first = 0
        line = $0; gsub(/[[:space:]]+/, " ", line)
        text = text " " line; last = NR
      }
      END { if (marked != "") flush() }' "$page"
  done
}

# doc_figures_check <root>: prints a line per figure that differs between the table and a page, and exits 1
# when there is any (or the README is too long, or the table is missing); 0 and a summary otherwise.
doc_figures_check() {
  local table="$work/figures_table.tsv" marks="$work/figures_marks.tsv" lines
  doc_figures_table "$1" >"$table"
  doc_figures_marks "$1" >"$marks"
  lines=$(wc -l <"$1/README.md")
  awk -F'\t' -v table="$table" -v readme_lines="$lines" -v max_lines="$kReadmeMaxLines" '
    # Whether figure occurs in text as a whole: not inside a longer number or word (75.3 s in 175.3 s).
    function holds(text, figure,   at, rest, before, after) {
      gsub(/[[:space:]]+/, " ", figure)
      rest = text
      while ((at = index(rest, figure)) > 0) {
        before = at > 1 ? substr(rest, at - 1, 1) : " "
        after = substr(rest, at + length(figure), 1)
        if (before !~ /[[:alnum:]._]/ && (after == "" || figure ~ /[^[:alnum:]]$/ || after !~ /[[:alnum:]]/))
          return 1
        rest = substr(rest, at + 1)
      }
      return 0
    }
    function fail(message) { print "FAIL: " message; failed++ }
    FILENAME == table && NF >= 3 {  # the table
      row[$2] = $1; figure[$2] = $3; rows++
      n = split($4, pages, /, */)
      for (i = 1; i <= n; i++) if (pages[i] != "") listed[$2 SUBSEP pages[i]] = 1
      next
    }
    FILENAME != table && NF >= 4 {  # the marks
      page = $1; line = $2; last = $3; key = $4
      marked[key SUBSEP page] = 1; marks++
      where = page ":" (line + 1) "-" last " (under <!-- figures from docs/results.md: ... -->, line " line ")"
      if (!(key in row)) {
        fail(page ":" line " marks figure \"" key "\", which is not a key of docs/results.md'"'"'s Latest figures table: add its row there (with the section that measured it) or correct the key")
        next
      }
      if (!((key SUBSEP page) in listed))
        fail("figure " key ": " page ":" line " marks it, but docs/results.md:" row[key] " does not list " page " under \"quoted in\": add it there")
      if (!holds($5, figure[key]))
        fail("figure " key ": docs/results.md:" row[key] " (Latest figures) has \"" figure[key] "\", but " where " does not quote it: make the two the same (a new measurement goes into the table first, then into every page that quotes it)")
      next
    }
    END {
      if (rows == 0) fail("docs/results.md has no rows in a \"## Latest figures\" table (| `key` | what | figure | GPU | measured in | quoted in |)")
      for (pair in listed) {
        if (pair in marked) continue
        split(pair, kp, SUBSEP)
        fail("figure " kp[1] ": docs/results.md:" row[kp[1]] " lists " kp[2] " under \"quoted in\", but " kp[2] " has no line <!-- figures from docs/results.md: ... " kp[1] " ... --> above what quotes it: add it, or take " kp[2] " out of the row")
      }
      if (readme_lines > max_lines)
        fail("README.md has " readme_lines " lines, at most " max_lines ": move detail into the manual (docs/) and link to it")
      if (failed) exit 1
      printf "%d figures of docs/results.md, %d marks in the pages, all the same; README.md %d of %d lines\n", rows, marks, readme_lines, max_lines
    }' "$table" "$marks"
}

passed=0 failed=0
# check <description> <command...>: passes when the command succeeds. Its output goes to $work/out and,
# unless the command is `says`, to $work/judged, which the checks of `says` after it read.
check() {
  if "${@:2}" >"$work/out" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1"
    sed 's/^/    /' "$work/out"
  fi
  [[ $2 == says ]] || cp "$work/out" "$work/judged"
}
fails() { ! "$@"; }
says() { grep -F -- "$1" "$work/judged" >/dev/null || { echo "not in the output: $1"; cat "$work/judged"; false; }; }
# copy_pages: a fresh copy of the pages in $work/copy.
copy_pages() {
  rm -rf "$work/copy" && mkdir -p "$work/copy/docs" && cp "$root/README.md" "$work/copy/" &&
    cp "$root"/docs/*.md "$work/copy/docs/"
}
# replace_literal <file> <old> <new>: every occurrence of old, as text, becomes new; fails if none was there.
replace_literal() {
  OLD=$2 NEW=$3 awk 'BEGIN { old = ENVIRON["OLD"]; new = ENVIRON["NEW"] }
    { out = ""; rest = $0
      while ((at = index(rest, old)) > 0) { out = out substr(rest, 1, at - 1) new; rest = substr(rest, at + length(old)); n++ }
      print out rest }
    END { exit n == 0 }' "$1" >"$1.new" && mv "$1.new" "$1"
}
# a_word_of <figure>: the word of a figure this test changes: its first with a digit, else its last.
a_word_of() {
  local word last=""
  for word in $1; do
    [[ $word == *[0-9]* ]] && { echo "$word"; return; }
    last=$word
  done
  echo "$last"
}
page_path() { if [[ $1 == README.md ]]; then echo "$work/copy/README.md"; else echo "$work/copy/docs/$1"; fi; }

# The pages as they are.
check "the figures the pages quote are docs/results.md's, and the README is within $kReadmeMaxLines lines" \
  doc_figures_check "$root"
cat "$work/out"

table=$(doc_figures_table "$root")
check "the table has rows" test -n "$table"
# Each figure changed in each page that quotes it (a word of it: 75.3 s -> 75.3x s): the check names the
# figure and both places.
while IFS=$'\t' read -r line key figure quoted_in; do
  IFS=', ' read -ra pages <<<"$quoted_in"
  word=$(a_word_of "$figure")
  for page in "${pages[@]}"; do
    copy_pages
    if ! replace_literal "$(page_path "$page")" "$word" "${word}x"; then
      echo "FAIL: figure $key: \"$word\" is not in $page, so this test cannot change it"
      failed=$((failed + 1))
      continue
    fi
    check "$page with figure $key changed fails" fails doc_figures_check "$work/copy"
    check "and names the figure and both places" says "figure $key: docs/results.md:$line (Latest figures) has \"$figure\", but $page:"
  done
  # The table's figure changed: every page that quotes it is named.
  copy_pages
  replace_literal "$work/copy/docs/results.md" "| $figure |" "| 12345.6 s |" ||
    replace_literal "$work/copy/docs/results.md" "| \`$figure\` |" "| 12345.6 s |"
  check "the table with figure $key changed fails" fails doc_figures_check "$work/copy"
  for page in "${pages[@]}"; do
    check "and names $page" says "figure $key: docs/results.md:$line (Latest figures) has \"12345.6 s\", but $page:"
  done
done <<<"$table"

IFS=$'\t' read -r first_line first_key first_figure first_quoted <<<"$(head -1 <<<"$table")"
first_page=${first_quoted%%,*}

copy_pages
replace_literal "$(page_path "$first_page")" "<!-- figures from docs/results.md: " "<!-- figure marks removed: "
check "$first_page without its marks fails" fails doc_figures_check "$work/copy"
check "and says which mark is missing" says "figure $first_key: docs/results.md:$first_line lists $first_page under \"quoted in\", but $first_page has no line"

copy_pages
printf '\n<!-- figures from docs/results.md: no_such_figure -->\nText.\n' >>"$work/copy/README.md"
check "a mark of an unknown key fails" fails doc_figures_check "$work/copy"
check "and names it" says "marks figure \"no_such_figure\", which is not a key"

copy_pages
replace_literal "$(page_path "$first_page")" "$first_figure" "1$first_figure"
check "figure $first_key inside a longer number fails" fails doc_figures_check "$work/copy"

copy_pages
replace_literal "$(page_path "$first_page")" "$first_figure" "${first_figure// /$'\n'}"
doc_figures_check "$work/copy" >"$work/wrapped" 2>&1
check "figure $first_key wrapped over lines holds" fails grep -F "figure $first_key:" "$work/wrapped"

copy_pages
lines=$(wc -l <"$work/copy/README.md")
for ((i = lines; i < kReadmeMaxLines; i++)); do echo >>"$work/copy/README.md"; done
check "a README of $kReadmeMaxLines lines passes" doc_figures_check "$work/copy"
echo >>"$work/copy/README.md"
check "a README of $((kReadmeMaxLines + 1)) lines fails" fails doc_figures_check "$work/copy"
check "and says so" says "README.md has $((kReadmeMaxLines + 1)) lines, at most $kReadmeMaxLines"

echo "$passed passed, $failed failed"
((failed == 0))
