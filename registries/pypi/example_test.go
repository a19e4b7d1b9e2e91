package pypi_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docidx/docidx/internal/purl"
	"github.com/docidx/docidx/registries/pypi"
)

// Reading what a Python environment has installed, without network.
func ExampleSitePackages() {
	sp, err := pypi.NewSitePackages("testdata/site-packages", pypi.SitePackagesConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	refs, _ := sp.List(ctx)
	for _, r := range refs {
		fmt.Println(purl.Format(r))
	}
	v, _ := sp.Resolve(ctx, "Greet", ">=1,<2")
	docs, _ := sp.Fetch(ctx, "Greet", v)
	fmt.Println(docs.Package.Name, docs.Package.Version, docs.Package.License, docs.Package.Repository)
	for _, s := range docs.Documents[0].Sections {
		fmt.Printf("section %v: %d code block(s)\n", s.Heading, len(s.Code))
	}
	for _, s := range docs.Symbols {
		fmt.Printf("%s %s: %s\n", s.Kind, s.QualifiedName, s.Signature)
	}
	// Output:
	// pkg:pypi/greet@1.2.0
	// greet 1.2.0 MIT https://github.com/example/greet
	// section [Greet]: 0 code block(s)
	// section [Greet Usage]: 1 code block(s)
	// package greet: module greet
	// func greet.greet: def greet(name: str, *, punctuation: str = "!") -> str
	// class greet.Greeter: class Greeter
	// method greet.Greeter.__init__: def __init__(self, names: list[str]) -> None
	// method greet.Greeter.greet_all: def greet_all(self) -> list[str]
}

// The index comes from pip's own configuration: here a pip.conf naming a mirror that serves the
// simple API under /simple/ (its JSON API is then expected under /pypi/).
func ExampleLoadConfig() {
	home, _ := os.MkdirTemp("", "pipconf")
	defer os.RemoveAll(home)
	conf := filepath.Join(home, ".config", "pip", "pip.conf")
	os.MkdirAll(filepath.Dir(conf), 0o755)
	os.WriteFile(conf, []byte("[global]\nindex-url = https://mirror.example.test/repo/simple\n"), 0o644)

	cfg, err := pypi.LoadConfig(pypi.ConfigOptions{Env: []string{"HOME=" + home, "PIP_CONFIG_FILE=" + os.DevNull}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.IndexURL == pypi.DefaultIndexURL) // PIP_CONFIG_FILE=/dev/null: no file is read

	cfg, _ = pypi.LoadConfig(pypi.ConfigOptions{Env: []string{"HOME=" + home}})
	fmt.Println(cfg.Source == conf)
	fmt.Println(cfg.SimpleURL)
	fmt.Println(cfg.JSONURL)
	fmt.Printf("%v\n", cfg.Files[len(cfg.Files)-1] == conf)
	fmt.Println(pypi.Normalize("Flask_SQLAlchemy"))
	// Output:
	// true
	// true
	// https://mirror.example.test/repo/simple/
	// https://mirror.example.test/repo/pypi/
	// true
	// flask-sqlalchemy
}
