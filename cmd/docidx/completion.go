package main

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// The bash, zsh and PowerShell scripts ask docidx for the words to offer
// (`docidx … --generate-bash-completion`, which urfave/cli answers because the app sets
// EnableBashCompletion), so they never go stale when a command or flag is added. urfave/cli v2
// generates only the fish script itself (App.ToFishCompletion); its repository carries bash, zsh
// and PowerShell scripts as loose files, not in the Go package, so docidx embeds its own.
var (
	//go:embed completion/docidx.bash
	bashCompletion string
	//go:embed completion/docidx.zsh
	zshCompletion string
	//go:embed completion/docidx.ps1
	powershellCompletion string
)

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh, fish or powershell",
		ArgsUsage: "SHELL",
		Description: "Load it in the current shell, e.g. `source <(docidx completion bash)`, or install it\n" +
			"where the shell looks for completions (README.md, \"Shell completion\").",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("completion wants one shell: bash, zsh, fish or powershell")
			}
			var script string
			switch shell := c.Args().First(); strings.ToLower(shell) {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "powershell", "pwsh":
				script = powershellCompletion
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return failf("generating the fish completion: %v", err)
				}
				script = s
			default:
				return usagef("completion: unknown shell %q; want bash, zsh, fish or powershell", shell)
			}
			_, err := fmt.Fprint(c.App.Writer, script)
			return err
		},
	}
}

// manCommand prints docidx's manual page (troff, section 1), generated from the commands and
// flags so it cannot drift from them. It is hidden: people read the page with man(1), release
// archives carry it as man/docidx.1, and `make man` writes it.
func manCommand() *cli.Command {
	return &cli.Command{
		Name:   "man",
		Usage:  "print the manual page (troff) for man(1)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			if c.NArg() != 0 {
				return usagef("man takes no arguments; redirect its output to a file, e.g. docidx man > docidx.1")
			}
			page, err := c.App.ToManWithSection(1)
			if err != nil {
				return failf("generating the manual page: %v", err)
			}
			_, err = fmt.Fprint(c.App.Writer, page)
			return err
		},
	}
}
