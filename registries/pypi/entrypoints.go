package pypi

import (
	"strings"

	"github.com/docidx/docidx"
)

// maxEntryPoints bounds the bytes of an entry_points.txt read: a distribution's commands are
// its first lines; plugins can list thousands.
const maxEntryPoints = 64 << 10

// entryPointCommands returns the commands an entry_points.txt declares
// (https://packaging.python.org/en/latest/specifications/entry-points/#file-format): the names
// of its console_scripts and gui_scripts groups, which installers turn into commands. The file
// is INI: "[group]" lines, then "name = module:attr [extras]" lines; "#" and ";" start comments.
func entryPointCommands(b []byte) []string {
	var names []string
	scripts := false
	for line := range strings.SplitSeq(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[':
			group := strings.TrimSpace(strings.Trim(line, "[]"))
			scripts = group == "console_scripts" || group == "gui_scripts"
		case scripts:
			if name, _, ok := strings.Cut(line, "="); ok {
				names = append(names, name)
			}
		}
	}
	return docidx.CommandNames(names)
}
