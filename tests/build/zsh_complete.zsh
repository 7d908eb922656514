# SPDX-License-Identifier: GPL-2.0-or-later
# zsh -f zsh_complete.zsh FPATH_DIR BIN_DIR LINE...: types each LINE and a TAB into an
# interactive zsh (zpty) whose completion system loads _latscope from FPATH_DIR, and prints
# what the terminal then shows (escape sequences removed), after "== LINE".  Output is read
# until the terminal has been quiet for a second (at most 15 s a line).
zmodload zsh/zpty
zpty -b z 'zsh -f -i'
drain() {
	local chunk all= quiet=0 waited=0
	while (( quiet < 10 && waited < 150 )); do
		if zpty -r -t z chunk; then all+=$chunk; quiet=0; else sleep 0.1; (( quiet++ )); fi
		(( waited++ ))
	done
	print -r -- "$all" | tr -d '\r' | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g'
}
zpty -w z "PS1='%% '; PATH=$2:\$PATH; fpath=($1 \$fpath); autoload -U compinit;
	compinit -u -D; zstyle ':completion:*:descriptions' format '[%d]'; setopt nobeep;
	LISTMAX=1000; COLUMNS=200"
drain >/dev/null
shift 2
for line in "$@"; do
	print -r -- "== $line"
	zpty -w -n z "$line"$'\t'
	drain
	zpty -w -n z $'\C-u'
	drain >/dev/null
done
zpty -d z
