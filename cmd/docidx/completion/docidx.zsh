#compdef docidx
# zsh completion for docidx. Load it with: source <(docidx completion zsh)
# or install it as _docidx in a directory of $fpath.
# docidx itself answers: it prints the commands, or a command's flags, for
# `docidx ... --generate-bash-completion` (urfave/cli's completion protocol).
_docidx() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    # A lone "--" would end the flags and hide the completion request; "-" asks for every flag.
    local req=$cur
    [[ "$req" == "--" ]] && req="-"
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${req} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
if [[ "$funcstack[1]" == "_docidx" ]]; then
  _docidx "$@"
else
  compdef _docidx docidx
fi
