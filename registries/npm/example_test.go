package npm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docidx/docidx/internal/purl"
	"github.com/docidx/docidx/registries/npm"
)

// An .npmrc with a private scope: the scope's packages go to its registry, and its token is sent
// only to URLs under that registry's path.
func ExampleLoadConfig() {
	dir, _ := os.MkdirTemp("", "npmrc")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, ".npmrc"), []byte(`
registry=https://mirror.example.test/npm/
@acme:registry=https://npm.acme.example.test/repo/
//npm.acme.example.test/repo/:_authToken=${ACME_TOKEN}
`), 0o644)

	cfg, err := npm.LoadConfig(npm.ConfigOptions{ProjectDir: dir, Env: []string{"HOME=" + dir, "ACME_TOKEN=t0k3n"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.RegistryFor("lodash"))
	fmt.Println(cfg.RegistryFor("@acme/tools"))
	fmt.Println(cfg.AuthFor("https://npm.acme.example.test/repo/@acme%2ftools"))
	fmt.Printf("%q\n", cfg.AuthFor("https://mirror.example.test/npm/lodash"))
	fmt.Println(strings.Contains(fmt.Sprint(cfg), "t0k3n")) // printing a Config never shows tokens
	// Output:
	// https://mirror.example.test/npm/
	// https://npm.acme.example.test/repo/
	// Bearer t0k3n
	// ""
	// false
}

// Reading what a project has installed, without network.
func ExampleNodeModules() {
	nm, err := npm.NewNodeModules("testdata/node_modules", npm.NodeModulesConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	refs, _ := nm.List(ctx)
	for _, r := range refs {
		fmt.Println(purl.Format(r))
	}
	v, _ := nm.Resolve(ctx, "@demo/greet", "^1")
	docs, _ := nm.Fetch(ctx, "@demo/greet", v)
	for _, s := range docs.Symbols {
		fmt.Printf("%s %s: %s\n", s.Kind, s.QualifiedName, s.Signature)
	}
	// Output:
	// pkg:npm/%40demo/greet@1.2.0
	// func greet: function greet(name: string): string
}
