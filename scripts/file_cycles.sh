#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/file_cycles.sh [BUILD_DIR]
#
# Calls between files go one way inside a layer too (docs/hacking.md): prints
# every cycle of files, of any length, where each object uses a symbol the next
# defines, for each static library (liblatscope_{model,formats,analyze,report,
# render,record}.a, ar x) and for the executable's own objects (cli/).  A
# cycle is printed as the files of one strongly connected component, with the
# symbols that tie them.  Prints nothing, exit status 0, when there is none.
build=${1:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
found=0

# edges GROUP OBJECT...: "user definer symbol" for every symbol an object uses
# that another one defines, into $tmp/edges
edges() {
	rm -f "$tmp/def" "$tmp/use"
	for o in "$@"; do
		n=${o##*/}
		nm "$o" | awk -v o="$n" '$2 ~ /^[TDBR]$/ {print $3, o}' >>"$tmp/def"
		nm -u "$o" | awk -v o="$n" '{print $2, o}' >>"$tmp/use"
	done
	sort -o "$tmp/def" "$tmp/def"
	sort -o "$tmp/use" "$tmp/use"
	join "$tmp/use" "$tmp/def" | awk '$2 != $3 {print $2, $3, $1}' >"$tmp/edges"
}

# the strongly connected components of more than one file (Tarjan's algorithm)
cycles() {
	python3 - "$1" "$tmp/edges" <<'EOF'
import sys
group, path = sys.argv[1], sys.argv[2]
succ, why = {}, {}
for line in open(path):
    a, b, sym = line.split()
    succ.setdefault(a, set()).add(b)
    succ.setdefault(b, set())
    why.setdefault((a, b), []).append(sym)
index, low, stack, on, comps = {}, {}, [], set(), []

def visit(v):
    work = [(v, iter(sorted(succ[v])))]
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    while work:
        node, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(succ[w]))))
                break
            if w in on:
                low[node] = min(low[node], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))

for v in sorted(succ):
    if v not in index:
        visit(v)
for comp in comps:
    print("%s: cycle of %d files: %s" % (group, len(comp), " ".join(comp)))
    for a in comp:
        for b in comp:
            if (a, b) in why:
                print("    %s -> %s: %s" % (a, b, ", ".join(sorted(why[(a, b)])[:6])))
EOF
}

for lib in model formats analyze report render record; do
	a=$build/liblatscope_$lib.a
	[ -f "$a" ] || { echo "missing: $a" >&2; exit 2; }
	rm -rf "$tmp/x"
	mkdir "$tmp/x"
	(cd "$tmp/x" && ar x "$a") || exit 2
	edges "$tmp"/x/*.o
	cycles "liblatscope_$lib.a" >"$tmp/cyc" || exit 2
	if [ -s "$tmp/cyc" ]; then
		cat "$tmp/cyc"
		found=1
	fi
done
set -- "$build"/CMakeFiles/latscope.dir/cli/*.o
[ -f "$1" ] || { echo "missing: the executable's objects in $build" >&2; exit 2; }
edges "$@"
cycles "cli" >"$tmp/cyc" || exit 2
if [ -s "$tmp/cyc" ]; then
	cat "$tmp/cyc"
	found=1
fi
[ "$found" = 0 ]
