#!/usr/bin/env bash
# manpages.sh DIR [VERSION]: make the man pages polyproxy(1) and polyglot.ini(5)
# in DIR (NAME and NAME.gz) from the manual itself, so the two cannot drift:
# docs/man/*.md are man-page-shaped templates whose directives pull in
#   <!-- include FILE [HEADING] -->  a docs page (or one section of it, up to
#                                    the next heading of its level), its
#                                    own heading dropped, the deeper ones
#                                    raised to fit, links reduced to their text
#   <!-- file FILE -->               a file verbatim, as a code block
#   <!-- commands -->                each command's -h text, from the binary
# (FILE relative to the template); @VERSION@ and @DATE@ (the commit's date)
# in the title line are filled in, and go-md2man (pinned below) turns the
# result into roff. GoReleaser runs it before the build; CI renders the
# pages and fails on an empty or broken one (scripts/release-check.sh).
set -euo pipefail
out=${1:?usage: manpages.sh DIR [VERSION]}
version=${2:-$(git describe --tags --always 2>/dev/null || echo devel)}
date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
md2man=github.com/cpuguy83/go-md2man/v2@v2.0.7

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/polyproxy" .

# section FILE [HEADING]: the text under HEADING (default: the page's title)
# up to the next heading of the same or a higher level, headings below it
# raised so that its sub-sections become the man page's sub-sections.
section() {
	awk -v want="${2:-}" '
		# unlink: links to other pages become their text (web links stay)
		function unlink(s,   done, m, text) {
			while (match(s, /\[[^]]*\]\([^)]*\)/)) {
				m = substr(s, RSTART, RLENGTH)
				text = substr(m, 2, index(m, "](") - 2)
				if (m ~ /\]\(https?:/) text = m
				done = done substr(s, 1, RSTART - 1) text
				s = substr(s, RSTART + RLENGTH)
			}
			return done s
		}
		/^```/ { fence = !fence }
		# The comments of the doc tests (cli/docs_test.go) are for them alone.
		/^<!-- doc-(test|file): .* -->$/ { next }
		!fence && /^#+ / {
			n = index($0, " ") - 1; text = substr($0, n + 2)
			if (!on && level == 0 && (want == "" ? n == 1 : text == want)) { on = 1; level = n; next }
			if (on && n <= level) exit
			if (on) { $0 = substr("######", 1, n - level + 1) " " text }
		}
		# Tables become definition lists (.TP, as man pages list options):
		# roff tables do not wrap plain cells, and ours are wide.
		on && !fence && /^\|/ {
			row = substr($0, 3, length($0) - 4)
			n = split(row, cell, / \| /)
			if (!table) { table = 1; for (i = 1; i <= n; i++) head[i] = cell[i]; next }
			if (row ~ /^[-:| ]*$/) next
			def = ""
			for (i = 2; i <= n; i++) def = def (i < n ? head[i] ": " cell[i] "; " : cell[i])
			print unlink(cell[1]); print ":   " unlink(def); print ""
			next
		}
		on {
			table = 0
			if (!fence) $0 = unlink($0)
			print
		}
		END { if (!on) { print "manpages.sh: no section \"" want "\" in " FILENAME > "/dev/stderr"; exit 1 } }
	' "$1"
}

commands() {
	"$tmp/polyproxy" help 2>&1 | awk '/^Commands:/ { on = 1; next } on && NF { print $1 }' | while read -r name; do
		printf '## %s\n\n' "$name"
		"$tmp/polyproxy" "$name" -h 2>&1 | sed 's/^/    /'
		echo
	done
}

expand() { # expand TEMPLATE
	local dir line file heading
	dir=$(dirname "$1")
	while IFS= read -r line; do
		if [[ $line =~ ^\<!--\ include\ ([^ ]+)(\ (.*))?\ --\>$ ]]; then
			file=${BASH_REMATCH[1]} heading=${BASH_REMATCH[3]}
			section "$dir/$file" "$heading"
		elif [[ $line =~ ^\<!--\ file\ ([^ ]+)\ --\>$ ]]; then
			sed 's/^/    /' "$dir/${BASH_REMATCH[1]}"
		elif [[ $line == '<!-- commands -->' ]]; then
			commands
		else
			printf '%s\n' "$line"
		fi
	done <"$1"
}

mkdir -p "$out"
for template in docs/man/*.md; do
	name=$(basename "$template" .md)
	expand "$template" | sed "1s/@VERSION@/$version/; 1s/@DATE@/$date/" >"$tmp/$name.md"
	go run "$md2man" -in "$tmp/$name.md" -out "$out/$name"
	[ -s "$out/$name" ] || { echo "manpages.sh: $name is empty" >&2; exit 1; }
	gzip -9nc "$out/$name" >"$out/$name.gz"
done
