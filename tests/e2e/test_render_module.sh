#!/bin/sh
# The render module (docs/render.md): the executable does not link cairo, loads
# latscope-render.so only to draw, finds it next to itself or where
# LATSCOPE_RENDER_MODULE says, and fails with a clear message and exit 1 when it
# cannot load it, while analysis goes on without it.  Usage: test_render_module.sh BIN REPO
bin=$1
repo=$2
tmp=$(mktemp -d /tmp/latscope-rmod-e2e.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/e2e/check.sh"
lat3=$repo/samples/lat3/seed000-lat3-vs-shell-loop.txt
mod=$(dirname "$bin")/latscope-render.so
unset LATSCOPE_RENDER_MODULE

check "module built next to the executable" '[ -f "$mod" ]'
check "executable needs no cairo, pixman, X11" \
	'! ldd "$bin" | grep -Eq "libcairo|libpixman|libX11|libfontconfig"'
check "module exports only its table" \
	'[ "$(nm -D --defined-only "$mod" | awk "{print \$3}" | grep -v "^_")" = lat_render_api_v1 ]'

# which libraries the dynamic loader opens, per command
LD_DEBUG=files "$bin" analyze "$lat3" >/dev/null 2>"$tmp/ld-analyze"
check "analyze runs" '[ $? -eq 0 ]'
check "analyze loads no cairo" '! grep -q "file=libcairo" "$tmp/ld-analyze"'
LD_DEBUG=files "$bin" render "$lat3" -o "$tmp/a.png" >/dev/null 2>"$tmp/ld-render"
check "render draws" '[ $? -eq 0 ] && [ -s "$tmp/a.png" ]'
check "render loads the module" 'grep -q "file=.*latscope-render.so" "$tmp/ld-render"'
check "and cairo with it" 'grep -q "file=libcairo" "$tmp/ld-render"'

LATSCOPE_RENDER_MODULE=$tmp/none.so "$bin" render "$lat3" -o "$tmp/b.png" >"$tmp/out" \
	2>"$tmp/err"
check "missing module: exit 1" '[ $? -eq 1 ]'
check "missing module: says which file" \
	'grep -q "^latscope: charts need $tmp/none.so: .*No such file" "$tmp/err"'
check "missing module: no chart written" '[ ! -e "$tmp/b.png" ]'
LATSCOPE_RENDER_MODULE=$tmp/none.so "$bin" render "$lat3" --chart pie -o "$tmp/b.png" \
	>/dev/null 2>&1
check "usage errors still checked first: exit 2" '[ $? -eq 2 ]'
LATSCOPE_RENDER_MODULE=$tmp/none.so "$bin" analyze --json "$lat3" >"$tmp/j" 2>/dev/null
check "analysis needs no module" '[ $? -eq 0 ] && grep -q "\"freezes\"" "$tmp/j"'

# a library that is not the module: found, but without the table (any library
# the executable loads: zlib may be linked in statically)
other=$(ldd "$bin" | sed -n "s|.* => \(/[^ ]*\).*|\1|p" | head -1)
LATSCOPE_RENDER_MODULE=$other "$bin" render "$lat3" -o "$tmp/c.png" >/dev/null 2>"$tmp/err"
check "not a module: exit 1" '[ $? -eq 1 ]'
check "not a module: names the symbol" 'grep -q "charts need $other: .*lat_render_api_v1" "$tmp/err"'

LATSCOPE_RENDER_MODULE=$mod "$bin" render "$lat3" -o "$tmp/d.png" >/dev/null 2>&1
check "LATSCOPE_RENDER_MODULE loads the module" '[ $? -eq 0 ] && cmp -s "$tmp/a.png" "$tmp/d.png"'

# a relocated copy finds the module beside it; alone, it looks in the install libdir
mkdir "$tmp/bin"
cp "$bin" "$mod" "$tmp/bin/"
"$tmp/bin/latscope" render "$lat3" -o "$tmp/e.png" >/dev/null 2>&1
check "module beside a copied executable" '[ $? -eq 0 ] && cmp -s "$tmp/a.png" "$tmp/e.png"'
rm "$tmp/bin/latscope-render.so"
"$tmp/bin/latscope" render "$lat3" -o "$tmp/f.png" >/dev/null 2>"$tmp/err"
st=$?
# exit 0 only when an installed module of this build is there (make install; $tmp/lib/latscope
# relative to $tmp/bin is not there)
check "alone: the install libdir or a clear error" \
	'[ $st -eq 0 ] || { [ $st -eq 1 ] && grep -q "^latscope: charts need /.*/latscope/latscope-render.so: " "$tmp/err"; }'

[ $fail -eq 0 ] && echo "render module e2e: all passed"
[ $fail -eq 0 ]
