package swift_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docidx/docidx/internal/purl"
	"github.com/docidx/docidx/registries/swift"
	"github.com/docidx/docidx/registries/swift/swifttest"
)

// A project registries.json with a scoped registry, and a token for it in ~/.netrc: the scope's
// packages go to its registry, and the token is sent only to that registry's host.
func ExampleLoadConfig() {
	home, _ := os.MkdirTemp("", "swiftcfg")
	defer os.RemoveAll(home)
	project := filepath.Join(home, "app")
	os.MkdirAll(filepath.Join(project, ".swiftpm", "configuration"), 0o755)
	os.WriteFile(filepath.Join(project, ".swiftpm", "configuration", "registries.json"), []byte(`{
	  "registries": {
	    "[default]": {"url": "https://mirror.example.test/swift"},
	    "acme": {"url": "https://swift.acme.example.test"}
	  },
	  "authentication": {"swift.acme.example.test": {"type": "token"}},
	  "version": 1
	}`), 0o644)
	os.WriteFile(filepath.Join(home, ".netrc"), []byte("machine swift.acme.example.test login token password t0k3n\n"), 0o600)

	cfg, err := swift.LoadConfig(swift.ConfigOptions{ProjectDir: project, Env: []string{"HOME=" + home}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.RegistryFor("mona"))
	fmt.Println(cfg.RegistryFor("ACME"))
	fmt.Println(cfg.AuthFor("https://swift.acme.example.test/acme/tools/1.0.0.zip"))
	fmt.Printf("%q\n", cfg.AuthFor("https://mirror.example.test/swift/mona/linkedlist"))
	// Output:
	// https://mirror.example.test/swift <nil>
	// https://swift.acme.example.test <nil>
	// Bearer t0k3n
	// ""
}

// Reading the dependencies a project resolved, without network.
func ExampleCheckouts() {
	project, _ := os.MkdirTemp("", "swiftproject")
	defer os.RemoveAll(project)
	swifttest.Layout(project, swifttest.Dependency{
		Location: "https://github.com/mona/LinkedList.git",
		Version:  "1.1.0",
		Files: map[string]string{
			"Package.swift": `let package = Package(name: "LinkedList")`,
			"Sources/LinkedList/List.swift": `
/// A singly linked list.
public struct LinkedList<Element> {
    /// Adds an element at the front.
    public mutating func push(_ element: Element) {}
    mutating func rebalance() {} // internal: not API
}`,
		},
	})

	c, err := swift.NewCheckouts(project, swift.CheckoutsConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	refs, _ := c.List(ctx)
	for _, r := range refs {
		fmt.Println(purl.Format(r))
	}
	v, _ := c.Resolve(ctx, "https://github.com/mona/LinkedList", "1.0.0..<2.0.0")
	docs, _ := c.Fetch(ctx, "linkedlist", v)
	for _, s := range docs.Symbols {
		fmt.Printf("%s %s: %s\n", s.Kind, s.QualifiedName, s.Signature)
	}
	// Output:
	// pkg:swift/linkedlist@1.1.0
	// struct LinkedList.LinkedList: public struct LinkedList<Element>
	// method LinkedList.LinkedList.push(_:): public mutating func push(_ element: Element)
}
