# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the e2e scripts: `check NAME CONDITION` evaluates the shell
# CONDITION and counts a failure in $fail (printed as "FAIL: NAME").
fail=0
check() {
	if ! eval "$2"; then
		echo "FAIL: $1"
		fail=$((fail + 1))
	fi
}
