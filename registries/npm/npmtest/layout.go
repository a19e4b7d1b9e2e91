package npmtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Installed is one package to lay out in a node_modules tree.
type Installed struct {
	Name    string
	Version string
	// Files are the package's files by slash path; package.json gets name and version set (and
	// is generated when absent).
	Files map[string]string
	// Nested packages go in this package's own node_modules (npm's layout for conflicting
	// versions); in a pnpm layout they become dependency symlinks beside it in the store.
	Nested []Installed
}

// Hoisted writes pkgs as npm and yarn classic install them under root/node_modules:
// node_modules/<name> or node_modules/@scope/<name>, each package's Nested ones in
// <package>/node_modules, plus the .bin, .cache and .package-lock.json entries a real tree has. It
// returns the node_modules directory.
func Hoisted(tb testing.TB, root string, pkgs ...Installed) string {
	tb.Helper()
	nm := filepath.Join(root, "node_modules")
	for _, p := range pkgs {
		writeHoisted(tb, nm, p)
	}
	mkdir(tb, filepath.Join(nm, ".bin"))
	mkdir(tb, filepath.Join(nm, ".cache", "junk"))
	writeFile(tb, filepath.Join(nm, ".cache", "junk", "package.json"), `{"name":"cached","version":"9.9.9"}`)
	writeFile(tb, filepath.Join(nm, ".package-lock.json"), `{"lockfileVersion":3}`)
	return nm
}

func writeHoisted(tb testing.TB, nm string, p Installed) {
	dir := filepath.Join(nm, filepath.FromSlash(p.Name))
	writePackage(tb, dir, p)
	for _, n := range p.Nested {
		writeHoisted(tb, filepath.Join(dir, "node_modules"), n)
	}
}

// PNPM writes pkgs as pnpm installs them under root/node_modules: real files in
// .pnpm/<name with "/" as "+">@<version>/node_modules/<name>, a top-level symlink
// node_modules/<name> to each of pkgs, and each Nested package stored the same way and linked
// beside its dependent inside the store. It returns the node_modules directory.
func PNPM(tb testing.TB, root string, pkgs ...Installed) string {
	tb.Helper()
	nm := filepath.Join(root, "node_modules")
	store := filepath.Join(nm, ".pnpm")
	mkdir(tb, filepath.Join(store, "node_modules"))
	writeFile(tb, filepath.Join(nm, ".modules.yaml"), "layoutVersion: 5\n")
	for _, p := range pkgs {
		dir := writeStore(tb, store, p)
		symlink(tb, dir, filepath.Join(nm, filepath.FromSlash(p.Name)))
	}
	return nm
}

// writeStore writes p (and its Nested dependencies) into the pnpm store and returns p's directory.
func writeStore(tb testing.TB, store string, p Installed) string {
	entry := strings.Replace(p.Name, "/", "+", 1) + "@" + p.Version
	inner := filepath.Join(store, entry, "node_modules")
	dir := filepath.Join(inner, filepath.FromSlash(p.Name))
	if _, err := os.Stat(dir); err != nil {
		writePackage(tb, dir, p)
	}
	for _, n := range p.Nested {
		depDir := writeStore(tb, store, n)
		link := filepath.Join(inner, filepath.FromSlash(n.Name))
		if _, err := os.Lstat(link); err != nil {
			symlink(tb, depDir, link)
		}
	}
	return dir
}

func writePackage(tb testing.TB, dir string, p Installed) {
	man := map[string]any{}
	if pj, ok := p.Files["package.json"]; ok {
		if err := json.Unmarshal([]byte(pj), &man); err != nil {
			tb.Fatalf("npmtest: %s package.json: %v", p.Name, err)
		}
	}
	man["name"], man["version"] = p.Name, p.Version
	pj, _ := json.MarshalIndent(man, "", "  ")
	writeFile(tb, filepath.Join(dir, "package.json"), string(pj))
	for name, body := range p.Files {
		if name != "package.json" {
			writeFile(tb, filepath.Join(dir, filepath.FromSlash(name)), body)
		}
	}
}

// symlink makes link point at target with a relative path, as package managers do.
func symlink(tb testing.TB, target, link string) {
	mkdir(tb, filepath.Dir(link))
	rel, err := filepath.Rel(filepath.Dir(link), target)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(rel, link); err != nil {
		tb.Fatalf("npmtest: %v", err)
	}
}

func mkdir(tb testing.TB, dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatalf("npmtest: %v", err)
	}
}

func writeFile(tb testing.TB, p, body string) {
	mkdir(tb, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		tb.Fatalf("npmtest: %v", err)
	}
}
