# PowerShell completion for docidx. Load it with:
#   docidx completion powershell | Out-String | Invoke-Expression
# or add that line to $PROFILE.
# docidx itself answers: it prints the commands, or a command's flags, for
# `docidx ... --generate-bash-completion` (urfave/cli's completion protocol).
Register-ArgumentCompleter -Native -CommandName docidx, docidx.exe -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })
    if ($wordToComplete -ne '' -and $words.Count -gt 1) {
        # The word being typed is not an argument yet; it only filters the answers.
        $words = $words[0..($words.Count - 2)]
    }
    $rest = @($words | Select-Object -Skip 1)
    # A lone "--" would end the flags and hide the completion request; "-" asks for every flag.
    if ($wordToComplete -eq '--') { $rest += '-' } elseif ($wordToComplete -like '-*') { $rest += $wordToComplete }
    & $words[0] @rest --generate-bash-completion 2>$null |
        Where-Object { $_ -like "$wordToComplete*" } |
        ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_) }
}
