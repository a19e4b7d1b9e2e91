package main

import (
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/docidx/docidx/crawl"
)

// rewriteArgs prepares os.Args for urfave/cli: a bare --go-modcache gets its default value (see
// standaloneModcache), then flags written after positional arguments are moved before them (see
// flagsFirst), so `docidx search rate limiter --limit 3 --json` means what it says.
func rewriteArgs(args []string) []string {
	return flagsFirst(newApp(), standaloneModcache(args))
}

// standaloneModcache lets --go-modcache stand alone, meaning the module cache `go env GOMODCACHE`
// names: urfave/cli flags always take a value, so a bare --go-modcache becomes
// --go-modcache=auto. It is bare when it comes last or is followed by a flag, by "--", or by a
// package spec (go:…, npm:…, pkg:…) that is not also an existing directory. Any other next
// argument is its DIR, whether or not it exists: `--go-modcache /missing` means the directory
// /missing, which then fails as such, rather than the default cache plus a spec "/missing".
func standaloneModcache(args []string) []string {
	out := make([]string, 0, len(args)+1)
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if a != "--go-modcache" && a != "-go-modcache" {
			continue
		}
		if i+1 < len(args) && modcacheDirArg(args[i+1]) {
			out = append(out, args[i+1])
			i++
			continue
		}
		out[len(out)-1] = a + "=" + modcacheAuto
	}
	return out
}

// modcacheDirArg reports whether the argument after a bare --go-modcache is its DIR (see
// standaloneModcache).
func modcacheDirArg(a string) bool {
	if isDir(a) {
		return true
	}
	if a == "" || a == "--" || (strings.HasPrefix(a, "-") && a != "-") {
		return false
	}
	_, err := crawl.ParseSpec(a)
	return err != nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// completionFlag is the argument urfave/cli's shell completion appends last; it must stay last.
const completionFlag = "--generate-bash-completion"

// argLevel is what flagsFirst knows of the app or of one command: its flags by every name and
// alias (true when the flag takes a value), and its subcommands by every name and alias.
type argLevel struct {
	flags map[string]bool
	subs  map[string]*argLevel
	raw   bool // the command reads its arguments itself (cli.Command.SkipFlagParsing)
}

// appLevel describes app's flags and commands, including the help and version flags urfave/cli
// adds when it sets the app up.
func appLevel(app *cli.App) *argLevel {
	flags := app.Flags
	if !app.HideHelp && cli.HelpFlag != nil {
		flags = append(flags[:len(flags):len(flags)], cli.HelpFlag)
	}
	if !app.HideVersion && cli.VersionFlag != nil {
		flags = append(flags[:len(flags):len(flags)], cli.VersionFlag)
	}
	return newArgLevel(flags, app.Commands)
}

func commandLevel(cmd *cli.Command) *argLevel {
	flags := cmd.Flags
	if !cmd.HideHelp && cli.HelpFlag != nil {
		flags = append(flags[:len(flags):len(flags)], cli.HelpFlag)
	}
	l := newArgLevel(flags, cmd.Subcommands)
	l.raw = cmd.SkipFlagParsing
	return l
}

func newArgLevel(flags []cli.Flag, cmds []*cli.Command) *argLevel {
	l := &argLevel{flags: make(map[string]bool), subs: make(map[string]*argLevel)}
	for _, f := range flags {
		// Every flag type urfave/cli defines says whether it takes a value; one that does not
		// say is read as a switch.
		tv, ok := f.(cli.DocGenerationFlag)
		takesValue := ok && tv.TakesValue()
		for _, n := range f.Names() {
			l.flags[n] = takesValue
		}
	}
	for _, c := range cmds {
		sub := commandLevel(c)
		for _, n := range c.Names() {
			l.subs[n] = sub
		}
	}
	return l
}

// flagsFirst reorders args (os.Args: the program name first) so that every flag comes before the
// positional arguments of the command it belongs to, which is the only place urfave/cli v2 reads
// flags: it stops at the first positional argument.
//
// It walks app's commands: the first positional argument at a level with subcommands that names
// one of them opens that command's level. A flag (-f, --f, -f=v, --f=v) goes to the innermost
// level that defines it (a command's own flag, else its parent's or the app's, which urfave/cli
// only reads before the command name); a flag that takes a value takes the next argument with it,
// whatever it looks like, as Go's flag package does. A flag no level defines stays with the
// innermost command, whose parser reports it. "--" ends the flags: what follows is positional and
// the "--" is kept in front of it, so urfave/cli treats it the same way; a lone "-" is positional.
// After a positional argument that names no command at a level that has commands (an unknown
// command), the rest is left as written so urfave/cli reports the command; so is what follows
// a command that reads its own arguments (SkipFlagParsing), and a last flag that lacks its
// value, which would otherwise take a positional argument as one. A trailing
// --generate-bash-completion stays last. --help at a command without subcommands drops the
// positional arguments, which urfave/cli would take for the name of a subcommand to explain.
// The app's --version after a command stays with the command, which does not have it: written
// there, it asks for a package's version (usageError says how to write one). A flag the app
// does not define, written before the command's name, goes to the command when the commands
// that define it agree on whether it takes a value ("docidx --index DIR search …", as git -C and
// kubectl --context are written); with no command after it, it stays, for urfave/cli to report,
// unless --help is asked for.
// The relative order of flags, and of positionals, is kept.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	rest := args[1:]
	complete := false
	if app.EnableBashCompletion && rest[len(rest)-1] == completionFlag && !slices.Contains(rest, "--") {
		complete = true
		rest = rest[:len(rest)-1]
	}

	type segment struct {
		level *argLevel
		name  string   // the command name as written; empty for the app
		flags []string // flags and their values, in order
		help  bool     // flags hold urfave/cli's help flag
	}
	segs := []segment{{level: appLevel(app)}}
	var pos, verbatim []string
	var early []string // flags of the command to come, written before its name (see subFlag)
	dashdash := false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		cur := &segs[len(segs)-1]
		if a == "--" {
			dashdash = true
			pos = append(pos, rest[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			if len(pos) == 0 && len(cur.level.subs) > 0 {
				if sub, ok := cur.level.subs[a]; ok {
					segs = append(segs, segment{level: sub, name: a, flags: early})
					early = nil
					if sub.raw {
						verbatim = rest[i+1:]
						break
					}
					continue
				}
				verbatim = rest[i:]
				break
			}
			pos = append(pos, a)
			continue
		}
		name, hasValue := flagName(a)
		owner, defined := len(segs)-1, false
		for j := owner; j >= 0; j-- {
			if _, ok := segs[j].level.flags[name]; ok {
				owner, defined = j, true
				break
			}
		}
		if takesValue, ok := cur.level.subFlag(name); !defined && ok && len(pos) == 0 {
			// "docidx --index DIR search …": a flag every command of this level that has it
			// defines alike, written before the command's name, is the command's.
			if takesValue && !hasValue {
				if i+1 == len(rest) {
					verbatim = rest[i:]
					break
				}
				early = append(early, a, rest[i+1])
				i++
				continue
			}
			early = append(early, a)
			continue
		}
		if owner == 0 && len(segs) > 1 && name == versionFlag.Name {
			// "docidx show --version 4 npm:zod" asks for a package version, not docidx's:
			// the command reports the flag it does not have (see usageError).
			owner = len(segs) - 1
		}
		s := &segs[owner]
		if s.level.flags[name] && !hasValue {
			if i+1 == len(rest) {
				// A last flag that lacks its value: moved before the positionals it
				// would take one of them, so it stays where it was written.
				verbatim = rest[i:]
				break
			}
			s.flags = append(s.flags, a, rest[i+1])
			i++
			continue
		}
		s.flags = append(s.flags, a)
		s.help = s.help || isHelp(a)
	}

	// Flags written before a command name that never came stay where they were written, for
	// urfave/cli to report, but beside --help, which needs none of them ("docidx --help
	// --index DIR").
	if last := &segs[len(segs)-1]; !last.help {
		last.flags = append(last.flags, early...)
	}
	if last := segs[len(segs)-1]; len(last.level.subs) == 0 && last.help {
		// urfave/cli reads a positional argument next to --help as the name of a subcommand
		// to show help for; a command without subcommands shows its own help.
		pos, dashdash = nil, false
	}

	out := make([]string, 0, len(args)+1)
	out = append(out, args[0])
	for i, s := range segs {
		if i > 0 {
			out = append(out, s.name)
		}
		out = append(out, s.flags...)
	}
	if dashdash {
		out = append(out, "--")
	}
	out = append(out, pos...)
	out = append(out, verbatim...)
	if complete {
		out = append(out, completionFlag)
	}
	return out
}

// isHelp reports whether the flag argument a is urfave/cli's help flag, set.
func isHelp(a string) bool {
	if cli.HelpFlag == nil {
		return false
	}
	name, hasValue := flagName(a)
	if !slices.Contains(cli.HelpFlag.Names(), name) {
		return false
	}
	if !hasValue {
		return true
	}
	_, v, _ := strings.Cut(a, "=")
	on, err := strconv.ParseBool(v)
	return err == nil && on
}

// subFlag reports whether a command of l (its subcommands) defines the flag name, and whether
// it takes a value; false when none does or two disagree on whether it takes one.
func (l *argLevel) subFlag(name string) (takesValue, ok bool) {
	for _, sub := range l.subs {
		tv, has := sub.flags[name]
		if !has {
			continue
		}
		if ok && tv != takesValue {
			return false, false
		}
		takesValue, ok = tv, true
	}
	return takesValue, ok
}

// flagName returns the name of the flag argument a (-name, --name, -name=value, --name=value) and
// whether a carries its value after "=".
func flagName(a string) (name string, hasValue bool) {
	name = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	name, _, hasValue = strings.Cut(name, "=")
	return name, hasValue
}
