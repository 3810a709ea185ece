# bash completion for nstest(1); installed by `make install` as
# $(PREFIX)/share/bash-completion/completions/nstest.
#
# Commands, each command's options, the values of --backend, --quirk,
# --format, --devices and --color, and scenario files (*.scn) and
# folders. The options and values are asked of the nstest being
# completed (its --help, and the "known: ..." of its errors), so that
# they never fall behind the program.

# _nstest_known NSTEST ARGS...: the list after "known:" in the error
# nstest gives for ARGS, as words.
_nstest_known()
{
	"$@" 2>&1 >/dev/null | sed -n 's/.*(known: \([^)]*\)).*/\1/p' | head -n1 |
		sed 's/; or / /; s/,/ /g'
}

_nstest()
{
	local cur prev cmd i nstest=${COMP_WORDS[0]}
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} != -* ]] && { cmd=${COMP_WORDS[i]}; break; }
	done
	if [[ -z $cmd ]]; then
		mapfile -t COMPREPLY < <(compgen -W "run show graph lint fuzz export import record help version --help --version" -- "$cur")
		return
	fi
	case $cmd in
	help)
		mapfile -t COMPREPLY < <(compgen -W "run show graph lint fuzz export import record" -- "$cur")
		return ;;
	version) return ;;
	esac
	case $prev in
	--backend | --vs)
		mapfile -t COMPREPLY < <(compgen -W "$(_nstest_known "$nstest" run --backend '?' x)" -- "$cur")
		return ;;
	--quirk)
		mapfile -t COMPREPLY < <(compgen -W "$(_nstest_known "$nstest" fuzz --quirk no-such-quirk --count 1 --out "${TMPDIR:-/tmp}")" -- "$cur")
		return ;;
	--format)
		if [[ $cmd == graph ]]; then
			mapfile -t COMPREPLY < <(compgen -W "dot svg" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_nstest_known "$nstest" run --format '?' x)" -- "$cur")
		fi
		return ;;
	-o | --output | --report | --html | --out | --vs-kernel)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	--scratch)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return ;;
	-t | --timeout | -j | --jobs | --repeat | --seed | --count | --time | --steps | \
	--terminals | --shard | --filter | --step | --after | --batch | --first | --shrink | --start)
		return ;;
	esac
	case $cur in
	--devices=*) mapfile -t COMPREPLY < <(compgen -P --devices= -W "tmpfs loop" -- "${cur#--devices=}"); return ;;
	--color=*) mapfile -t COMPREPLY < <(compgen -P --color= -W "auto always never" -- "${cur#--color=}"); return ;;
	--quirks=*) mapfile -t COMPREPLY < <(compgen -P --quirks= -W "kernel" -- "${cur#--quirks=}"); return ;;
	-*)
		mapfile -t COMPREPLY < <(compgen -W "$("$nstest" "$cmd" --help 2>/dev/null |
			grep -oE -- '--[a-z][a-z-]*=?' | sort -u)" -- "$cur")
		[[ ${COMPREPLY[0]:-} == *= ]] && compopt -o nospace
		return ;;
	esac
	# scenario files and the folders that hold them
	mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X '!*.scn' -- "$cur")
	compopt -o filenames 2>/dev/null
}
complete -F _nstest nstest
