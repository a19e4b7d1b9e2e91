package index

// store.go holds the bbolt layout of store.db.
//
// Buckets (keys are UTF-8; "\x00" separates key parts because no ecosystem, package name or
// version contains a NUL byte):
//
//	meta      "format" -> decimal FormatVersion
//	packages  eco\x00name\x00version -> JSON docidx.Package
//	names     eco\x00name            -> JSON nameEntry (indexed versions, latest, description)
//	where     eco\x00name\x00version -> the name of the segment that searches it ("seg-000003")
//	counts    eco\x00name\x00version -> versionCounts: three uvarints (documents, sections, symbols)
//	documents eco\x00name\x00version -> JSON []docidx.Document (README first, then docs, then examples)
//	symbols   eco\x00name\x00version -> JSON []docidx.Symbol (declaration order)
//
// Since format 4 a published store has no documents and symbols buckets: each version's values
// are in the document store (docs.dat, see docstore.go) of the segment that indexes it, and
// store.db is the catalog alone, small enough for a crawl to copy however large the snapshot.
// A crawl stages the values it puts, encoded so, in a file of its own (staging.dat in the
// generation being written, removed before it is published; see stage.go) until Commit writes
// them into the new segments. A store of format 3 or older holds them for every version: it is
// read as the staging area of the crawl that rewrites it, which then drops them and compacts the
// store.
//
// Since format 2 a value of minCompressed bytes or more is stored as one zstd frame (RFC 8878)
// of its JSON: the documents and symbols of a package version are most of a snapshot's bytes,
// and compress about five times. A value is told apart by its first byte (JSON starts with none
// of zstd's magic number).
//
// Versions are immutable, so a value is written once per crawl of that version and read many
// times; JSON keeps the store inspectable with any bbolt tool (and zstd, for large values).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/klauspost/compress/zstd"
	bolt "go.etcd.io/bbolt"

	"github.com/docidx/docidx"
)

// minCompressed is the least size of a value's JSON that is stored compressed: below it a
// frame's header outweighs what it saves.
const minCompressed = 1 << 10

// maxValueBytes bounds a stored value once decompressed, so that a damaged frame cannot claim
// more memory than any package's documents take.
const maxValueBytes = 1 << 30

// zstdMagic starts a zstd frame.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// The encoder and decoder of stored values; their EncodeAll and DecodeAll may be called
// concurrently.
var (
	valueEncoder = must(zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1)))
	valueDecoder = must(zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxValueBytes)))
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

var (
	bucketMeta      = []byte("meta")
	bucketPackages  = []byte("packages")
	bucketDocuments = []byte("documents")
	bucketSymbols   = []byte("symbols")
	bucketNames     = []byte("names")
	// bucketWhere maps each package version's key to the name of the segment its documents
	// are searched in ("seg-000003"); a version crawled again moves to the newer segment, and
	// the older segment's copy of it is no longer searched.
	bucketWhere = []byte("where")
	// bucketCounts holds each package version's versionCounts, for the manifest.
	bucketCounts = []byte("counts")
	// catalogBuckets are those of a published store; stagingBuckets the documents and symbols
	// of a store of format 3 or older (see the top of this file).
	catalogBuckets = [][]byte{bucketMeta, bucketPackages, bucketNames, bucketWhere, bucketCounts}
	stagingBuckets = [][]byte{bucketDocuments, bucketSymbols}
)

// nameEntry is the value of the names bucket: what list_packages and completion need of one
// package without reading any version.
type nameEntry struct {
	Versions    []string `json:"versions"` // indexed versions, oldest first
	Latest      string   `json:"latest"`
	Description string   `json:"description,omitempty"` // of the latest version
	// Root is the version last put with docidx.Package.Root (the one a project resolves,
	// node_modules' top-level copy), empty when none was; a search without a version searches
	// it rather than Latest (defaultVersion).
	Root string `json:"root,omitempty"`
}

// defaultVersion returns the version of e that a search or a lookup without a version reads:
// Root when it is indexed, else Latest.
func (e *nameEntry) defaultVersion() string {
	if e.Root != "" && slices.Contains(e.Versions, e.Root) {
		return e.Root
	}
	return e.Latest
}

// Keys hold names as their ecosystem compares them (docidx.NormalizeName), so pypi:PyYAML and
// pypi:pyyaml are one package.
func versionKey(ref docidx.Ref) []byte {
	return []byte(string(ref.Ecosystem) + "\x00" + docidx.NormalizeName(ref.Ecosystem, ref.Name) + "\x00" + ref.Version)
}

func nameKey(eco docidx.Ecosystem, name string) []byte {
	return []byte(string(eco) + "\x00" + docidx.NormalizeName(eco, name))
}

// parseVersionKey returns the package version of a version key.
func parseVersionKey(k []byte) (docidx.Ref, error) {
	parts := bytes.SplitN(k, []byte{0}, 3)
	if len(parts) != 3 {
		return docidx.Ref{}, fmt.Errorf("%w: malformed version key %q", ErrCorrupt, k)
	}
	return docidx.Ref{Ecosystem: docidx.Ecosystem(parts[0]), Name: string(parts[1]), Version: string(parts[2])}, nil
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

// decodeJSON decodes the value data stored under key, as met in a bucket's iteration: JSON,
// or a zstd frame of it.
func decodeJSON(key, data []byte, v any) error {
	if err := decodeValue(key, data, v); err != nil {
		return fmt.Errorf("%w: %s: %v", docidx.ErrFormat, StoreFile, err)
	}
	return nil
}

// decodeValue decodes a value as putJSON encodes it (JSON, or a zstd frame of it), stored under
// key, into v; its error names the key, not the file.
func decodeValue(key, data []byte, v any) error {
	if bytes.HasPrefix(data, zstdMagic) {
		plain, err := valueDecoder.DecodeAll(data, nil)
		if err != nil {
			return fmt.Errorf("decompressing %q: %v", key, err)
		}
		data = plain
	}
	switch p := v.(type) { // the values every segment build reads: jsondec.go
	case *[]docidx.Document:
		if docs, ok := fastDocuments(data); ok {
			*p = docs
			return nil
		}
	case *[]docidx.Symbol:
		if syms, ok := fastSymbols(data); ok {
			*p = syms
			return nil
		}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decoding %q: %v", key, err)
	}
	return nil
}

// putJSON stores v as JSON under key, as one zstd frame of it when that is minCompressed bytes
// or more.
func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := encodeJSON(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

// encodeJSON returns v as a value is stored: JSON, as one zstd frame of it when that is
// minCompressed bytes or more.
func encodeJSON(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(data) >= minCompressed {
		data = valueEncoder.EncodeAll(data, make([]byte, 0, len(data)/4))
	}
	return data, nil
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
