package index

// snapshot.go lays out generations on disk:
//
//	<dir>/CURRENT        the name of the current generation ("gen-000007\n"), replaced by rename
//	<dir>/gen-000007/    one snapshot: manifest.json and store.db
//	<dir>/seg-000012/    a segment (segment.go), shared by the generations whose manifests list it
//	<dir>/.lock          held (flock) by the one crawl writing a new generation
//
// A generation becomes visible only when CURRENT names it, and CURRENT is switched only after
// every file of the generation and of the segments it adds is written and synced, so a crash at
// any moment leaves the previous generation current and whole. A segment is removed once no
// generation left lists it (see removeUnused), as Lucene's IndexFileDeleter removes the files
// no commit point references. A generation unpacked from an archive (Install), or written by a
// docidx of format 4, holds its segments itself (Manifest.SegmentDir).

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/docidx/docidx"
)

const (
	currentFile = "CURRENT"
	lockFile    = ".lock"
	genPrefix   = "gen-"
)

func genName(n int) string { return fmt.Sprintf("%s%06d", genPrefix, n) }

// parseGen returns the number of a generation directory name, or -1.
func parseGen(name string) int {
	s, ok := strings.CutPrefix(name, genPrefix)
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// currentGen returns the directory of the current generation under dir, or an error wrapping
// docidx.ErrNoSnapshot. A dir that is itself a snapshot (it holds manifest.json) is returned as is.
func currentGen(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return dir, nil
	}
	data, err := readSmall(filepath.Join(dir, currentFile), maxCurrentBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: no snapshot in %s yet: run `docidx crawl` first", docidx.ErrNoSnapshot, dir)
	}
	if err != nil {
		return "", err
	}
	name := strings.TrimSpace(string(data))
	if parseGen(name) < 0 {
		return "", damaged(filepath.Join(dir, currentFile), "it names %q, not a generation", name)
	}
	return filepath.Join(dir, name), nil
}

// generations returns the generation numbers present under dir, ascending.
func generations(dir string) ([]int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var gens []int
	for _, e := range entries {
		if n := parseGen(e.Name()); n >= 0 && e.IsDir() {
			gens = append(gens, n)
		}
	}
	sort.Ints(gens)
	return gens, nil
}

// readManifest reads and checks manifest.json of one snapshot directory. A missing manifest is
// damage (an error wrapping ErrCorrupt): a generation is named by CURRENT only once its manifest
// is written, and a single snapshot directory is recognised by its manifest.
func readManifest(snap string) (*Manifest, error) {
	path := filepath.Join(snap, ManifestFile)
	data, err := readSmall(path, maxManifestBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, serr := os.Stat(snap); errors.Is(serr, fs.ErrNotExist) {
				return nil, damaged(snap, "the snapshot directory is missing")
			}
			return nil, fileError(path, err)
		}
		return nil, err
	}
	return parseManifest(data, snap)
}

// parseManifest decodes manifest.json of the snapshot named where (a directory or "archive").
// The format version is checked first, so that a manifest from a newer docidx, whatever else
// changed in it, is refused as newer rather than misread or reported as damaged.
func parseManifest(data []byte, where string) (*Manifest, error) {
	var v struct {
		Format        int    `json:"format"`
		DocidxVersion string `json:"docidxVersion"`
	}
	// A manifest that is not JSON, or has no format, is damaged (ErrCorrupt), not of another
	// format.
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, damaged(filepath.Join(where, ManifestFile), "%v", err)
	}
	if v.Format > FormatVersion {
		return nil, fmt.Errorf("%w: snapshot %s has format %d (written by docidx %s); this docidx (%s) reads formats up to %d: upgrade docidx",
			docidx.ErrFormat, where, v.Format, v.DocidxVersion, docidx.Version, FormatVersion)
	}
	if v.Format < 1 {
		return nil, damaged(filepath.Join(where, ManifestFile), "no format version")
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, damaged(filepath.Join(where, ManifestFile), "%v", err)
	}
	switch {
	case m.SegmentDir != "" && m.SegmentDir != "..":
		return nil, damaged(filepath.Join(where, ManifestFile), "its segment directory is %q, not \"\" or \"..\"", m.SegmentDir)
	case m.SegmentDir != "" && m.Format < 5:
		return nil, damaged(filepath.Join(where, ManifestFile), "format %d keeps its segments in the snapshot, it says in %q", m.Format, m.SegmentDir)
	}
	return &m, nil
}

// checksums returns the sha256 of every regular file under snap except the manifest, keyed by
// slash path.
func checksums(snap string) (map[string]string, error) {
	sums := map[string]string{}
	err := filepath.WalkDir(snap, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(snap, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == ManifestFile {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return err
		}
		sums[rel] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	return sums, err
}

// writeFileSync writes data to path through a temporary file, syncs it and renames it into place.
func writeFileSync(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncTree fsyncs every file and directory under root.
func syncTree(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	})
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func marshalManifest(m *Manifest) ([]byte, error) {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// removeUnused removes every generation under the index directory dir except keep (the current
// one, or -1 when there is none): those newer than keep are debris of crawls that did not
// finish, and older ones go as soon as no Reader holds them (see lockUnused). A generation that a
// server still reads is left for a later crawl to remove. Then it removes the segments beside
// the generations that no generation left lists (see removeUnlisted). The caller holds the
// crawl lock. Errors are ignored: what cannot be removed now is tried again at the next crawl.
func removeUnused(dir string, keep int) {
	gens, err := generations(dir)
	if err != nil {
		return
	}
	newestOlder := -1
	for _, g := range gens {
		if g < keep {
			newestOlder = g
		}
	}
	for _, g := range gens {
		p := filepath.Join(dir, genName(g))
		switch {
		case g == keep:
		case g > keep:
			os.RemoveAll(p)
		case !canTellUnused:
			// No way to learn whether a server reads it: keep the generation just replaced,
			// which servers still open switch away from at their next check.
			if g != newestOlder {
				os.RemoveAll(p)
			}
		default:
			if release, ok := lockUnused(p); ok {
				os.RemoveAll(p)
				release()
			}
		}
	}
	removeUnlisted(dir)
}

// removeUnlisted removes the segment directories in the index directory dir that no generation
// there lists: merged away, no longer searched, or written by a crawl that did not finish. It
// removes nothing when a generation's manifest cannot be read, which might list any of them.
// The caller holds the crawl lock, so no crawl is writing a segment meanwhile.
func removeUnlisted(dir string) {
	gens, err := generations(dir)
	if err != nil {
		return
	}
	listed := map[string]bool{}
	for _, g := range gens {
		m, err := readManifest(filepath.Join(dir, genName(g)))
		if err != nil {
			return
		}
		if m.SegmentDir == ".." {
			for _, seg := range m.Segments {
				listed[seg.Name] = true
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if validSegmentName(e.Name()) && !listed[e.Name()] {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
