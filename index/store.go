package index

// store.go holds the bbolt layout of store.db.
//
// Buckets (keys are UTF-8; "\x00" separates key parts because no ecosystem, package name or
// version contains a NUL byte):
//
//	meta      "format" -> decimal FormatVersion
//	packages  eco\x00name\x00version -> JSON docidx.Package
//	documents eco\x00name\x00version -> JSON []docidx.Document (README first, then docs, then examples)
//	symbols   eco\x00name\x00version -> JSON []docidx.Symbol (declaration order)
//	names     eco\x00name            -> JSON nameEntry (indexed versions, latest, description)
//
// Versions are immutable, so a value is written once per crawl of that version and read many
// times; JSON keeps the store inspectable with any bbolt tool.

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/docidx/docidx"
	bolt "go.etcd.io/bbolt"
)

var (
	bucketMeta      = []byte("meta")
	bucketPackages  = []byte("packages")
	bucketDocuments = []byte("documents")
	bucketSymbols   = []byte("symbols")
	bucketNames     = []byte("names")
	allBuckets      = [][]byte{bucketMeta, bucketPackages, bucketDocuments, bucketSymbols, bucketNames}
)

// nameEntry is the value of the names bucket: what list_packages and completion need of one
// package without reading any version.
type nameEntry struct {
	Versions    []string `json:"versions"` // indexed versions, oldest first
	Latest      string   `json:"latest"`
	Description string   `json:"description,omitempty"` // of the latest version
}

// Keys hold names as their ecosystem compares them (docidx.NormalizeName), so pypi:PyYAML and
// pypi:pyyaml are one package.
func versionKey(ref docidx.Ref) []byte {
	return []byte(string(ref.Ecosystem) + "\x00" + docidx.NormalizeName(ref.Ecosystem, ref.Name) + "\x00" + ref.Version)
}

func nameKey(eco docidx.Ecosystem, name string) []byte {
	return []byte(string(eco) + "\x00" + docidx.NormalizeName(eco, name))
}

func parseNameKey(k []byte) (docidx.Ecosystem, string) {
	eco, name, _ := bytes.Cut(k, []byte{0})
	return docidx.Ecosystem(eco), string(name)
}

// latestVersion returns the newest of versions: the highest release, or the highest
// pre-release when there is no release.
func latestVersion(eco docidx.Ecosystem, versions []string) string {
	best, bestPre := "", ""
	for _, v := range versions {
		if docidx.IsPrerelease(eco, v) {
			if bestPre == "" || docidx.CompareVersions(eco, v, bestPre) > 0 {
				bestPre = v
			}
			continue
		}
		if best == "" || docidx.CompareVersions(eco, v, best) > 0 {
			best = v
		}
	}
	if best == "" {
		return bestPre
	}
	return best
}

func getJSON(b *bolt.Bucket, key []byte, v any) (bool, error) {
	data := b.Get(key)
	if data == nil {
		return false, nil
	}
	return true, decodeJSON(key, data, v)
}

// decodeJSON decodes the value data stored under key, as met in a bucket's iteration.
func decodeJSON(key, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: store.db: decoding %q: %v", docidx.ErrFormat, key, err)
	}
	return nil
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

// docOrder sorts documents: README first, then docs, then examples, each by path.
func docRank(k docidx.DocKind) int {
	switch k {
	case docidx.DocReadme:
		return 0
	case docidx.DocGuide:
		return 1
	default:
		return 2
	}
}
