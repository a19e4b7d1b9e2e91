# bash completion for docidx. Load it with: source <(docidx completion bash)
# or install it as ~/.local/share/bash-completion/completions/docidx.
# docidx itself answers: it prints the commands, or a command's flags, for
# `docidx ... --generate-bash-completion` (urfave/cli's completion protocol).
_docidx_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local opts
  if [[ "$cur" == -* ]]; then
    # A lone "--" would end the flags and hide the completion request; "-" asks for every flag.
    local req="$cur"
    [[ "$req" == "--" ]] && req="-"
    opts=$("${words[@]}" "$req" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o bashdefault -o default -F _docidx_complete docidx
