package cargo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/cargo/cargotest"
	"github.com/docidx/docidx/registries/internal/testutil"
)

// TestRealCrates fetches real crates — the .crate files cargo package makes from the published
// sources of flatbuffers and flexbuffers 25.2.10 (testdata/real) — through the fake registry, and
// also the tz fixture's .crate as cargo wrote it, byte for byte.
func TestRealCrates(t *testing.T) {
	r, srv := newTestRegistry(t, nil)
	for _, tc := range []struct {
		file, name, version string
		symbols             int
		want                []string
	}{
		{"flatbuffers-25.2.10.crate", "flatbuffers", "25.2.10", 150, []string{"flatbuffers::FlatBufferBuilder::create_vector", "flatbuffers::Follow::follow", "flatbuffers::root", "flatbuffers::Verifier::visit_table"}},
		{"flexbuffers-25.2.10.crate", "flexbuffers", "25.2.10", 90, []string{"flexbuffers::Reader::as_str", "flexbuffers::Builder::start_map", "flexbuffers::to_vec", "flexbuffers::FlexBufferType"}},
		{"tz-0.1.0.crate", "tz", "0.1.0", 6, []string{"tz::zones::by_name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "real", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			srv.AddArchive(cargotest.Crate{Name: tc.name, Version: tc.version}, data)
			pd := testutil.Fetched(t, r, tc.name, tc.version)
			syms := testutil.ByName(pd.Symbols)
			if len(syms) < tc.symbols {
				t.Errorf("%d symbols, want at least %d", len(syms), tc.symbols)
			}
			for _, q := range tc.want {
				if _, ok := syms[q]; !ok {
					t.Errorf("symbol %s missing", q)
				}
			}
			t.Logf("%s: %d symbols, %d documents, license %q, %q", tc.name, len(pd.Symbols), len(pd.Documents), pd.Package.License, pd.Package.Description)
			if tc.name != "tz" && (len(pd.Documents) == 0 || pd.Documents[0].Kind != docidx.DocReadme || pd.Package.License != "Apache-2.0" || !strings.Contains(pd.Package.Description, "Official")) {
				t.Errorf("package %+v, documents %d", pd.Package, len(pd.Documents))
			}
		})
	}
}
