package crawl_test

import (
	"fmt"
	"testing/fstest"

	"github.com/docidx/docidx/crawl"
)

// ParseLockfileFS follows a requirements file's includes and reports what it cannot crawl.
func ExampleParseLockfileFS() {
	fsys := fstest.MapFS{
		"app/requirements.txt": {Data: []byte(`-r base.txt
Flask[async]==3.1.3 ; python_version >= "3.9" \
    --hash=sha256:4283fefc63f0cd0e873a0000c6d07ef7b77e90d3593ad699fc1f7cd5bb2e35cb
gunicorn>=22
-e ./libs/acme
`)},
		"app/base.txt": {Data: []byte("click==8.4.0\n")},
	}
	lf, err := crawl.ParseLockfileFS(fsys, "app/requirements.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range lf.Specs {
		fmt.Println(s, "from", s.Origin)
	}
	for _, s := range lf.Skipped {
		fmt.Println("skipped", s)
	}
	// Output:
	// pypi:click@8.4.0 from base.txt:1
	// pypi:flask@3.1.3 from requirements.txt:2
	// pypi:gunicorn@>=22 from requirements.txt:4
	// skipped app/requirements.txt:5: -e ./libs/acme: editable requirement (a local project or VCS checkout)
}

// ParseLockfile reads one lockfile held in memory.
func ExampleParseLockfile() {
	specs, err := crawl.ParseLockfile("Cargo.lock", []byte(`version = 4

[[package]]
name = "app"
version = "0.1.0"
dependencies = [
 "serde",
]

[[package]]
name = "serde"
version = "1.0.217"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "02fc4265df13d6fa1d00ecff087228cc0a2b5f3c0e87e258d8b94a156e984c70"
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(specs)
	// Output:
	// [cargo:serde@1.0.217]
}

func ExampleParseSpec() {
	for _, arg := range []string{
		"pypi:Flask==3.1.3",
		"crates:serde@1.0.217",
		"swift:git@github.com:apple/swift-nio.git@2.65.0",
		"pkg:swift/github.com/apple/swift-nio@2.65.0",
	} {
		s, err := crawl.ParseSpec(arg)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s name=%s query=%s exact=%v\n", s.Ecosystem, s.Name, s.Query, s.Exact)
	}
	// Output:
	// pypi name=flask query=3.1.3 exact=true
	// cargo name=serde query=1.0.217 exact=false
	// swift name=git@github.com:apple/swift-nio.git query=2.65.0 exact=false
	// swift name=https://github.com/apple/swift-nio query=2.65.0 exact=true
}
