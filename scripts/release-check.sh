#!/usr/bin/env bash
# release-check.sh: build the snapshot release with GoReleaser (the pinned
# version .goreleaser.yaml names) and check it as users get it:
#   - the archives hold the binary, the ini, README, LICENSE and the
#     licences of every module `go version -m` lists in their binary;
#     checksums.txt matches; the man pages render without a warning;
#   - the .deb: its fields, installed with apt-get as users install it,
#     `polyproxy version` (the snapshot's version and commit), `man -w`, a
#     UCI game against Debian's Stockfish with the gnuchess book through
#     /usr/bin/polyproxy, removed;
#   - the Windows zip unpacked into a folder with spaces in its name, the
#     fake engine beside polyproxy.exe, polyproxy.exe started under Wine
#     with no argument as Arena starts it (it reads the polyglot.ini beside
#     it): a book answer and a clean quit, no process left.
# .ci/run calls it after the tests; it needs root (or sudo) for apt, and
# what scripts/setup.sh installs. Everything it makes is under dist/,
# build/ and a temporary folder it removes.
# `release-check.sh warm` only builds GoReleaser (its first build compiles
# it: minutes of CPU), which .ci/run starts at low priority beside the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
export DEBIAN_FRONTEND=noninteractive

goreleaser=github.com/goreleaser/goreleaser/v2@v2.15.1
if [ "${1:-}" = warm ]; then
	exec go run "$goreleaser" --version >/dev/null
fi
fail() { echo "release-check: $*" >&2; exit 1; }
step() { echo "== release-check: $* ($((SECONDS - start)) s)"; }
start=$SECONDS

sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
# apt waits for dpkg's lock (held by unattended upgrades on a fresh machine,
# or another install) where dpkg alone would fail at once.
apt=("${sudo[@]}" apt-get -y -q -o DPkg::Lock::Timeout=600)

tmp=$(mktemp -d)
installed=
wineprefix=
cleanup() {
	if [ -n "$wineprefix" ]; then
		WINEPREFIX=$wineprefix wineserver -k 2>/dev/null || true
		WINEPREFIX=$wineprefix wineserver -w 2>/dev/null || true
	fi
	if [ -n "$installed" ]; then "${apt[@]}" remove polyproxy >/dev/null 2>&1 || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

step "goreleaser release --snapshot"
# GoReleaser reads the commit only when it can also read a remote's URL
# (else a snapshot says commit "none"): a checkout without one gets the
# project's, for this run only.
if [ -z "$(git remote)" ]; then
	export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/polyproxy/polyproxy.git
fi
go run "$goreleaser" release --snapshot --clean --skip=publish >"$tmp/goreleaser.log" 2>&1 ||
	{ cat "$tmp/goreleaser.log"; fail "goreleaser failed"; }
version=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)
[ -n "$version" ] || fail "no version in dist/metadata.json"
commit=$(git rev-parse HEAD)
echo "snapshot $version, commit $commit"
unset GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0

step "checksums"
(cd dist && sha256sum --quiet -c checksums.txt) || fail "checksums.txt does not match"

# listing ARCHIVE: its files, one a line, without the wrapping folder.
listing() {
	case $1 in
	*.zip) unzip -Z1 "$1" ;;
	*.tar.gz) tar -tzf "$1" | sed 's|^[^/]*/||' ;;
	esac | grep -v '/$' | sort
}

# The licences a binary needs: Go's, the explorer's pieces' and those of
# the modules it links.
needed_licences() {
	echo licenses/README
	echo licenses/go/LICENSE
	echo licenses/explore-pieces/LICENSE
	go version -m "$1" | awk '$1 == "dep" { print "licenses/" $2 "/LICENSE" }'
}

step "archives"
for target in linux_amd64 linux_arm64 darwin_amd64 darwin_arm64 windows_amd64; do
	exe=polyproxy ini=polyglot.ini.example ext=tar.gz man=(man/polyproxy.1 man/polyglot.ini.5)
	if [ "$target" = windows_amd64 ]; then exe=polyproxy.exe ini=polyglot.ini ext=zip man=(); fi
	archive=dist/polyproxy_${version}_${target}.$ext
	[ -f "$archive" ] || fail "no $archive"
	listing "$archive" >"$tmp/list"
	binary=$(find dist -type f -name "$exe" -path "*${target}*" | head -1)
	[ -n "$binary" ] || fail "no built $exe for $target in dist/"
	for want in "$exe" "$ini" README.md LICENSE "${man[@]}" $(needed_licences "$binary"); do
		grep -qxF "$want" "$tmp/list" || fail "$archive lacks $want (it has: $(tr '\n' ' ' <"$tmp/list"))"
	done
	echo "$archive: $(wc -l <"$tmp/list") files, $(du -k "$archive" | cut -f1) KB"
done

step "man pages"
for page in build/release/man/polyproxy.1 build/release/man/polyglot.ini.5; do
	warnings=$(groff -k -man -Tutf8 -ww -z "$page" 2>&1) || fail "groff failed on $page: $warnings"
	[ -z "$warnings" ] || fail "groff warns on $page: $warnings"
	if command -v mandoc >/dev/null; then
		mandoc -T lint -W warning "$page" || fail "mandoc -T lint warns on $page"
	fi
	lines=$(MANWIDTH=80 man -l "$page" 2>/dev/null | grep -c .) || true
	MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q '^NAME' || fail "$page renders without a NAME section"
	[ "$lines" -gt 50 ] || fail "$page renders to $lines lines: empty or broken"
	echo "$page: $lines lines"
done

step "the .deb"
deb=dist/polyproxy_${version}_amd64.deb
[ -f "$deb" ] || fail "no $deb"
fields=$(dpkg-deb -f "$deb")
echo "$fields" | grep -qx 'Recommends: stockfish' || fail "$deb: Recommends is not stockfish: $fields"
echo "$fields" | grep -qx 'Suggests: gnuchess-book, xboard' || fail "$deb: Suggests is not gnuchess-book, xboard: $fields"
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' >"$tmp/deb-files"
for want in /usr/bin/polyproxy /usr/share/man/man1/polyproxy.1.gz /usr/share/man/man5/polyglot.ini.5.gz \
	/usr/share/doc/polyproxy/polyglot.ini.example /usr/share/doc/polyproxy/copyright /usr/share/doc/polyproxy/licenses/go/LICENSE; do
	grep -qxF "$want" "$tmp/deb-files" || fail "$deb lacks $want"
done
"${apt[@]}" install --no-install-recommends "./$deb" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get could not install $deb"; }
installed=1
[ "$(command -v polyproxy)" = /usr/bin/polyproxy ] || fail "polyproxy on PATH is $(command -v polyproxy), not /usr/bin/polyproxy"
got=$(polyproxy version)
echo "$got"
[[ $got == "polyproxy $version (commit ${commit:0:12}, go"* ]] || fail "polyproxy version says \"$got\", want $version and commit ${commit:0:12}"
for flag in -version --version; do
	[ "$(polyproxy $flag)" = "$got" ] || fail "polyproxy $flag differs from polyproxy version"
done
[ "$(man -w polyproxy)" = /usr/share/man/man1/polyproxy.1.gz ] || fail "man -w polyproxy: $(man -w polyproxy 2>&1)"
[ "$(man -w 5 polyglot.ini)" = /usr/share/man/man5/polyglot.ini.5.gz ] || fail "man -w 5 polyglot.ini: $(man -w 5 polyglot.ini 2>&1)"

# A game through the installed binary: Stockfish plays both sides from the
# gnuchess book until it leaves the book, then 10 more plies by search.
[ -x /usr/games/stockfish ] && [ -f /usr/share/games/gnuchess/book.bin ] ||
	fail "stockfish and gnuchess-book are needed (scripts/setup.sh installs them)"
coproc PROXY { exec polyproxy -noini -ec /usr/games/stockfish -pg Book=true \
	-pg BookFile=/usr/share/games/gnuchess/book.bin -uci Hash=16 -uci Threads=1 2>"$tmp/proxy.err"; }
proxy_pid=$PROXY_PID
to_proxy=${PROXY[1]} from_proxy=${PROXY[0]}
# expect WORD: read the proxy's lines until one starts with WORD (10 s each).
expect() {
	local line
	while IFS= read -r -t 10 line <&"$from_proxy"; do
		reply+="$line"$'\n'
		[[ $line == "$1"* ]] && return 0
	done
	fail "no \"$1\" from the installed polyproxy; got: $reply (stderr: $(cat "$tmp/proxy.err"))"
}
reply=
echo uci >&"$to_proxy"
expect uciok
echo isready >&"$to_proxy"
expect readyok
moves= book=0 searched=0
for ((ply = 0; ply < 80 && searched < 10; ply++)); do
	reply=
	printf 'position startpos%s\ngo movetime 20\n' "${moves:+ moves$moves}" >&"$to_proxy"
	expect bestmove
	move=$(grep '^bestmove' <<<"$reply" | awk '{ print $2 }')
	[[ $move =~ ^[a-h][1-8][a-h][1-8][qrbn]?$ ]] || fail "ply $ply: bestmove \"$move\" after${moves}"
	if grep -q '^info string book move' <<<"$reply"; then ((++book)); else ((++searched)); fi
	moves+=" $move"
done
echo quit >&"$to_proxy"
wait "$proxy_pid" || fail "the installed polyproxy exited with status $? after quit"
echo "game: $ply plies, $book from the book, $searched searched:$moves"
[ "$book" -ge 2 ] || fail "only $book book moves from the gnuchess book"
"${apt[@]}" remove polyproxy >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get could not remove polyproxy"; }
installed=
[ ! -e /usr/bin/polyproxy ] || fail "removing the package left /usr/bin/polyproxy"

step "the Windows zip under Wine"
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
[ -x "$wine" ] && command -v wineserver >/dev/null && command -v x86_64-w64-mingw32-gcc >/dev/null ||
	fail "wine64, wineserver and x86_64-w64-mingw32-gcc are needed (scripts/setup.sh installs them)"
wineprefix=$tmp/wine
mkdir -p "$wineprefix"
export WINEPREFIX=$wineprefix WINEDEBUG=-all LC_ALL=C.UTF-8 WINEDLLOVERRIDES='mscoree,mshtml=;winemenubuilder.exe=d'
unset DISPLAY WAYLAND_DISPLAY
wineserver -p60
"$wine" wineboot --init >"$tmp/wineboot.log" 2>&1 || { cat "$tmp/wineboot.log"; fail "wineboot failed"; }
# Go programs need a bcryptprimitives.dll that Wine 8 lacks (see internal/testenv).
x86_64-w64-mingw32-gcc -shared -O2 -o "$wineprefix/drive_c/windows/system32/bcryptprimitives.dll" \
	testdata/wine/bcryptprimitives.c -ladvapi32
folder="$tmp/Arena Engines/polyproxy for Arena"
mkdir -p "$folder"
unzip -q "dist/polyproxy_${version}_windows_amd64.zip" -d "$folder"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$folder/fakeengine.exe" ./testdata/fakeengine
# The user's one edit: the engine beside polyproxy.exe (a bare name is
# looked for in EngineDir, the ini's folder). The rest is the ini as shipped.
sed -i 's/^EngineCommand = .*\r$/EngineCommand = fakeengine.exe\r/' "$folder/polyglot.ini"
grep -q $'^EngineCommand = fakeengine.exe\r$' "$folder/polyglot.ini" || fail "no EngineCommand line in the zip's polyglot.ini"
grep -q $'^BookFile = book.bin\r$' "$folder/polyglot.ini" || fail "the zip's polyglot.ini has no relative BookFile = book.bin"
# book.bin, the BookFile the ini names: 1. e4 from the start position,
# made by the Linux archive's binary.
mkdir "$tmp/linux"
tar -xzf "dist/polyproxy_${version}_linux_amd64.tar.gz" -C "$tmp/linux" --strip-components=1
printf 'e2e4 e7e5\n' >"$tmp/book.txt"
"$tmp/linux/polyproxy" compile-book -txt "$tmp/book.txt" -bin "$folder/book.bin" 2>/dev/null
(cd "$folder" && printf 'uci\r\nisready\r\nucinewgame\r\nposition startpos\r\ngo wtime 60000 btime 60000\r\nquit\r\n' |
	timeout 60 "$wine" polyproxy.exe >"$tmp/win.out" 2>"$tmp/win.err") ||
	fail "polyproxy.exe under Wine: exit status $? (stdout: $(cat "$tmp/win.out"); stderr: $(cat "$tmp/win.err"))"
for want in 'id name ' uciok readyok 'info string book move e2e4' 'bestmove e2e4'; do
	grep -q "^$want" <(tr -d '\r' <"$tmp/win.out") ||
		fail "polyproxy.exe under Wine gave no \"$want\" (stdout: $(cat "$tmp/win.out"); stderr: $(cat "$tmp/win.err"))"
done
left=$("$wine" winedbg --command "info proc" 2>/dev/null | tr -d '\r' | grep -Ei "'(polyproxy|fakeengine)\.exe'" || true)
[ -z "$left" ] || fail "processes left after quit: $left"
winver=$("$wine" "$folder/polyproxy.exe" version 2>&1 | tr -d '\r')
[[ $winver == "polyproxy $version (commit ${commit:0:12}, go"*" windows/amd64)" ]] || fail "polyproxy.exe version says \"$winver\""
echo "$winver: book answer e2e4 and a clean quit from \"$folder\""

step "release check passed"
