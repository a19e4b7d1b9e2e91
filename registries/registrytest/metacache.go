package registrytest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/docidx/docidx"
)

// MetadataCacheSubject is a registry client whose Resolve keeps the metadata it read (packuments,
// index files, project pages) in a bounded cache, with its fake, for MetadataCache.
type MetadataCacheSubject struct {
	// Registry is the client under test and Server its fake's kit server.
	Registry docidx.Registry
	Server   *Server
	// Fault makes Resolve(Name, "") fail with an error wrapping Want; once it is cleared, Resolve
	// must return Version.
	Fault         Fault
	Want          error
	Name, Version string
	// Add publishes a package called name (any version) on the fake.
	Add func(name string)
	// Size is the cache's capacity in entries and Len how many it holds now.
	Size int
	Len  func() int
}

// MetadataCache checks that a failed read is not cached (the same Resolve succeeds once the fault
// is cleared) and that resolving Size+4 other packages leaves at most Size entries in the cache.
func MetadataCache(t *testing.T, s MetadataCacheSubject) {
	t.Helper()
	ctx := context.Background()
	s.Server.Inject(s.Fault)
	if _, err := s.Registry.Resolve(ctx, s.Name, ""); !errors.Is(err, s.Want) {
		t.Fatalf("Resolve(%s) with the fault = %v, want %v", s.Name, err, s.Want)
	}
	s.Server.ClearFaults()
	if v, err := s.Registry.Resolve(ctx, s.Name, ""); err != nil || v != s.Version {
		t.Fatalf("after the fault cleared: %q %v, want %s (failures must not be cached)", v, err, s.Version)
	}
	for i := range s.Size + 4 {
		name := fmt.Sprintf("p%d", i)
		s.Add(name)
		if _, err := s.Registry.Resolve(ctx, name, ""); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.Len(); n > s.Size {
		t.Errorf("cache holds %d entries, more than its %d", n, s.Size)
	}
}
