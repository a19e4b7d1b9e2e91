package main

import "os"

// rewriteArgs lets --go-modcache stand alone, meaning the module cache `go env GOMODCACHE`
// names: urfave/cli flags always take a value, so a bare --go-modcache (one not followed by an
// existing directory) becomes --go-modcache=auto.
func rewriteArgs(args []string) []string {
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
		if i+1 < len(args) && isDir(args[i+1]) {
			out = append(out, args[i+1])
			i++
			continue
		}
		out[len(out)-1] = a + "=" + modcacheAuto
	}
	return out
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
