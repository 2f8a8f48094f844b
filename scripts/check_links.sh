#!/usr/bin/env bash
# Check that every relative link in the project's Markdown resolves: the file or
# directory exists inside the repository, and a #anchor names a heading of the page it
# points to (GitHub's heading ids). Links with a scheme (https:, mailto:) are not
# fetched; absolute paths and links that leave the repository are errors.
#
#   scripts/check_links.sh               README.md, docs/*.md, data/README.md
#   scripts/check_links.sh FILE.md...    the given files
#   scripts/check_links.sh --self-test   check the checker on pages made for it
#
# Exit code 0 when every link resolves, 1 (with one line per broken link) otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

check() {
  python3 - "$@" <<'PY'
import os
import re
import sys
import unicodedata
from urllib.parse import unquote

root = os.path.realpath(os.getcwd())
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ID = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    fence = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = FENCE.match(line)
            if m:
                mark = m.group(1)
                if fence is None:
                    fence = mark
                elif mark[0] == fence[0] and len(mark) >= len(fence):
                    fence = None
                continue
            if fence is None:
                yield number, line.rstrip("\n")


def slug(heading):
    """GitHub's id for a heading: the text without markup, lower case, punctuation
    dropped, spaces turned into hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    out = []
    for ch in text.lower():
        if ch == " ":
            out.append("-")
        elif ch in "-_" or unicodedata.category(ch)[0] in "LN":
            out.append(ch)
    return "".join(out)


anchors_cache = {}


def anchors(path):
    if path not in anchors_cache:
        seen = {}
        ids = set()
        for _, line in prose_lines(path):
            for m in HTML_ID.finditer(line):
                ids.add(m.group(1))
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                ids.add(base if n == 0 else f"{base}-{n}")
        anchors_cache[path] = ids
    return anchors_cache[path]


def links(path):
    for number, line in prose_lines(path):
        line = re.sub(r"(`+).*?\1", "", line)  # code spans hold no links
        for m in INLINE.finditer(line):
            yield number, m.group(1).strip("<>")
        m = REFDEF.match(line)
        if m:
            yield number, m.group(1).strip("<>")


def problem(page, target):
    """Why `target`, linked from `page`, does not resolve; None when it does."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target) or target.startswith("//"):
        return None  # a URL with a scheme: not checked here
    if target.startswith("/"):
        return "an absolute path"
    path_part, _, fragment = target.partition("#")
    if path_part:
        dest = os.path.realpath(os.path.join(os.path.dirname(page), unquote(path_part)))
        if dest != root and not dest.startswith(root + os.sep):
            return "leaves the repository"
        if not os.path.exists(dest):
            return "no such file"
    else:
        dest = os.path.realpath(page)
    if fragment:
        if os.path.isdir(dest) or not dest.endswith(".md"):
            return "an anchor into a page that is not Markdown"
        if unquote(fragment) not in anchors(dest):
            return f"no heading '#{fragment}' in {os.path.relpath(dest, root)}"
    return None


broken = 0
checked = 0
for page in sys.argv[1:]:
    for number, target in links(page):
        checked += 1
        why = problem(page, target)
        if why:
            broken += 1
            print(f"{page}:{number}: broken link '{target}': {why}", file=sys.stderr)
pages = len(sys.argv) - 1
if broken:
    print(f"check_links: {broken} broken of {checked} links in {pages} pages", file=sys.stderr)
    sys.exit(1)
print(f"check_links: {checked} links in {pages} pages, all resolve")
PY
}

# In a subshell, so that the scratch pages go whatever happens.
self_test() (
  dir=$(mktemp -d "$PWD/.check_links.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
  mkdir "$dir/sub"
  cat >"$dir/good.md" <<'MD'
# Good page
## Where a record's rules come from
## Timing: `report` and `bench`
## Repeated
## Repeated
[up](#good-page) [rules](#where-a-records-rules-come-from) [t](#timing-report-and-bench)
[second](#repeated-1) [other](sub/other.md#other-page) ![img](sub/) [web](https://example.org/x)
[ref]: sub/other.md
```sh
[not a link](nowhere.md)
```
`[not a link either](nowhere.md)`
MD
  printf '# Other page\n[back](../good.md#repeated)\n' >"$dir/sub/other.md"
  if ! out=$(check "$dir/good.md" "$dir/sub/other.md" 2>&1) ||
    ! grep -q '^check_links: 9 links in 2 pages, all resolve$' <<<"$out"; then
    echo "check_links self-test: the good pages did not pass as expected:" >&2
    echo "$out" >&2
    exit 1
  fi
  for bad in '[x](missing.md)' '[x](#no-such-heading)' '[x](sub/other.md#good-page)' \
    '[x](/etc/passwd)' '[x](../../outside.md)' '[x]: sub/missing.md' '[x](sub/#a)'; do
    printf '# Bad page\n%s\n' "$bad" >"$dir/bad.md"
    if out=$(check "$dir/bad.md" 2>&1) || ! grep -q "bad.md:2: broken link" <<<"$out"; then
      echo "check_links self-test: '$bad' was not reported as broken:" >&2
      echo "$out" >&2
      exit 1
    fi
  done
  echo "check_links self-test: good links pass, 7 kinds of broken link are caught"
)

if [ "${1:-}" = "--self-test" ]; then
  self_test
elif [ $# -gt 0 ]; then
  check "$@"
else
  check README.md docs/*.md data/README.md
fi
