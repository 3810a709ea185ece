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
		COMPREPLY=($(compgen -W "run show graph lint fuzz export help version --help --version" -- "$cur"))
		return
	fi
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "run show graph lint fuzz export" -- "$cur"))
		return ;;
	version) return ;;
	esac
	case $prev in
	--backend | --vs)
		COMPREPLY=($(compgen -W "$(_nstest_known "$nstest" run --backend '?' x)" -- "$cur"))
		return ;;
	--quirk)
		COMPREPLY=($(compgen -W "$(_nstest_known "$nstest" fuzz --quirk no-such-quirk --count 1 --out "${TMPDIR:-/tmp}")" -- "$cur"))
		return ;;
	--format)
		if [[ $cmd == graph ]]; then
			COMPREPLY=($(compgen -W "dot svg" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_nstest_known "$nstest" run --format '?' x)" -- "$cur"))
		fi
		return ;;
	-o | --output | --report | --html | --out | --vs-kernel)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-t | --timeout | -j | --jobs | --repeat | --seed | --count | --time | --steps | \
	--terminals | --shard | --filter | --step | --after | --batch | --first | --shrink | --start)
		return ;;
	esac
	case $cur in
	--devices=*) COMPREPLY=($(compgen -P --devices= -W "tmpfs loop" -- "${cur#--devices=}")); return ;;
	--color=*) COMPREPLY=($(compgen -P --color= -W "auto always never" -- "${cur#--color=}")); return ;;
	--quirks=*) COMPREPLY=($(compgen -P --quirks= -W "kernel" -- "${cur#--quirks=}")); return ;;
	-*)
		COMPREPLY=($(compgen -W "$("$nstest" "$cmd" --help 2>/dev/null |
			grep -oE -- '--[a-z][a-z-]*=?' | sed 's/=$/=/' | sort -u)" -- "$cur"))
		[[ ${COMPREPLY[0]:-} == *= ]] && compopt -o nospace
		return ;;
	esac
	# scenario files and the folders that hold them
	COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.scn' -- "$cur"))
	compopt -o filenames 2>/dev/null
}
complete -F _nstest nstest
