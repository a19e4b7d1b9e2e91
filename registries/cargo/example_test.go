package cargo_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docidx/docidx/internal/purl"
	"github.com/docidx/docidx/registries/cargo"
)

// A project that replaces crates.io with a company mirror and uses a private registry: crates go
// to the mirror, and the private registry's token stays out of anything printed.
func ExampleLoadConfig() {
	project, _ := os.MkdirTemp("", "cargo-config")
	defer os.RemoveAll(project)
	os.MkdirAll(filepath.Join(project, ".cargo"), 0o755)
	os.WriteFile(filepath.Join(project, ".cargo", "config.toml"), []byte(`
[source.crates-io]
replace-with = "mirror"

[source.mirror]
registry = "sparse+https://mirror.example.test/crates-io/"

[registries.acme]
index = "sparse+https://cargo.acme.example.test/index/"
`), 0o644)

	cfg, err := cargo.LoadConfig(cargo.ConfigOptions{
		ProjectDir: project,
		CargoHome:  filepath.Join(project, "no-cargo-home"),
		Env:        []string{"CARGO_REGISTRIES_ACME_TOKEN=s3cret"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	crates, _ := cfg.Source("")
	acme, _ := cfg.Source("acme")
	fmt.Println(crates)
	fmt.Println(acme, acme.HasToken())
	fmt.Println(strings.Contains(fmt.Sprint(cfg, acme), "s3cret"))
	// Output:
	// crates-io (replaced by mirror) sparse+https://mirror.example.test/crates-io/
	// acme sparse+https://cargo.acme.example.test/index/ true
	// false
}

// Reading the crates cargo has extracted into its home, without network.
func ExampleCache() {
	home, _ := os.MkdirTemp("", "cargo-home")
	defer os.RemoveAll(home)
	crate := filepath.Join(home, "registry", "src", "index.crates.io-1949cf8c6b5b557f", "greet-0.2.1")
	os.MkdirAll(filepath.Join(crate, "src"), 0o755)
	os.WriteFile(filepath.Join(crate, "Cargo.toml"), []byte("[package]\nname = \"greet\"\nversion = \"0.2.1\"\nedition = \"2021\"\n"), 0o644)
	os.WriteFile(filepath.Join(crate, "src", "lib.rs"), []byte("//! Greetings.\n\n/// Says hello.\npub fn hello(name: &str) -> String {\n    format!(\"hello {name}\")\n}\n\nfn private() {}\n"), 0o644)

	c, err := cargo.NewCache(home, cargo.CacheConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	refs, _ := c.List(ctx)
	for _, r := range refs {
		fmt.Println(purl.Format(r))
	}
	docs, _ := c.Fetch(ctx, "greet", "")
	for _, s := range docs.Symbols {
		fmt.Printf("%s %s: %s\n", s.Kind, s.QualifiedName, s.Signature)
	}
	// Output:
	// pkg:cargo/greet@0.2.1
	// package greet: crate greet
	// func greet::hello: pub fn hello(name: &str) -> String
}

// Where a crate's entry lives in a sparse index.
func ExampleIndexPath() {
	for _, name := range []string{"a", "rg", "syn", "serde_json"} {
		fmt.Println(cargo.IndexPath(name))
	}
	// Output:
	// 1/a
	// 2/rg
	// 3/s/syn
	// se/rd/serde_json
}
