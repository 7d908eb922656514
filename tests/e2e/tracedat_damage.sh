# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced: `tracedat_damaged FILE DIR` writes the damaged copies of a trace.dat
# that the corruption test dumps and scripts/tracedat_dump_cmp.sh compares:
# DIR/bytes-01.dat .. bytes-24.dat, each with 1-8 bytes overwritten at
# deterministic places spread over the metadata and the data (values 0, 0xff
# and others), and DIR/cut-1.dat .. cut-8.dat, the file cut at 1/9 .. 8/9.
tracedat_damaged() {
	_f=$1
	_d=$2
	rm -rf "$_d"
	mkdir -p "$_d" || return 1
	_size=$(wc -c <"$_f")
	_i=1
	while [ $_i -le 24 ]; do
		_c=$_d/bytes-$(printf '%02d' $_i).dat
		cp "$_f" "$_c"
		_n=$((_i % 8 + 1))
		_j=0
		while [ $_j -lt $_n ]; do
			# a multiplicative walk over the file
			_off=$(((_i * 7919 + _j * 104729) * 2654435761 % _size))
			_val=$(((_i * 37 + _j * 11) % 256))
			[ $((_i % 3)) -eq 0 ] && _val=255
			[ $((_i % 5)) -eq 0 ] && _val=0
			printf "$(printf '\\%03o' $_val)" |
				dd of="$_c" bs=1 seek=$_off conv=notrunc 2>/dev/null
			_j=$((_j + 1))
		done
		_i=$((_i + 1))
	done
	_i=1
	while [ $_i -le 8 ]; do
		head -c $((_size * _i / 9)) "$_f" >"$_d/cut-$_i.dat"
		_i=$((_i + 1))
	done
}
