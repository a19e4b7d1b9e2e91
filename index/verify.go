package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bolt "go.etcd.io/bbolt"
)

// Verification is what Verify checked.
type Verification struct {
	Snapshot   string    `json:"snapshot"`   // the snapshot directory checked (for an archive: where it was unpacked)
	Archive    string    `json:"archive"`    // the archive checked, if any
	Manifest   *Manifest `json:"manifest"`   // its manifest
	Files      int       `json:"files"`      // files whose checksum matched
	Bytes      int64     `json:"bytes"`      // their size in all
	Versions   int       `json:"versions"`   // package versions in store.db
	SearchDocs uint64    `json:"searchDocs"` // documents in the search indexes
}

// maxProblems is how many problems one Verify error lists before it says "and N more".
const maxProblems = 10

// Verify checks a snapshot: path may be an index directory (its current generation is checked),
// a snapshot directory, or an archive (unpacked into a temporary directory under tmpDir, or the
// system's when empty, and removed afterwards). It checks every file against the sha256 in the
// manifest and that no file is missing or unlisted, then opens both stores read-only: bbolt's own
// consistency check over every page, the format recorded in the store, and both Bleve indexes.
// A failure returns an error wrapping ErrCorrupt that names each problem; a newer format one
// wrapping docidx.ErrFormat.
func Verify(ctx context.Context, path, tmpDir string) (*Verification, error) {
	if !IsArchive(path) {
		snap, err := currentGen(path)
		if err != nil {
			return nil, err
		}
		return verifyDir(ctx, snap)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tmp, err := os.MkdirTemp(tmpDir, "docidx-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	snap := filepath.Join(tmp, "snapshot")
	if _, err := Extract(f, snap); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	v, err := verifyDir(ctx, snap)
	if v != nil {
		v.Archive = path
	}
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

func verifyDir(ctx context.Context, snap string) (*Verification, error) {
	m, err := readManifest(snap)
	if err != nil {
		return nil, err
	}
	v := &Verification{Snapshot: snap, Manifest: m}
	var problems []string
	unreadable := 0 // problems that are permissions, not damage
	for _, name := range sortedFiles(m) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !safeName(name) {
			problems = append(problems, fmt.Sprintf("manifest lists the unsafe file name %q", name))
			continue
		}
		n, sum, err := hashFile(m.filePath(snap, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			problems = append(problems, name+" is missing")
		case errors.Is(err, fs.ErrPermission):
			unreadable++
			problems = append(problems, name+" is not readable by this user")
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
		case sum != m.Files[name]:
			problems = append(problems, fmt.Sprintf("%s has sha256 %s, the manifest says %s", name, sum, m.Files[name]))
		default:
			v.Files++
			v.Bytes += n
		}
	}
	// Files in the snapshot, and in its segments kept beside it, that the manifest does not list.
	unlisted := func(root, prefix string) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			if rel = prefix + filepath.ToSlash(rel); rel != ManifestFile && m.Files[rel] == "" {
				problems = append(problems, rel+" is not listed in the manifest")
			}
			return nil
		})
	}
	unlisted(snap, "")
	if m.SegmentDir != "" {
		for _, seg := range m.Segments {
			if validSegmentName(seg.Name) {
				unlisted(m.segmentPath(snap, seg.Name), seg.Name+"/")
			}
		}
	}
	if len(problems) == 0 {
		// Only a snapshot whose bytes are right is opened: a damaged store could crash bbolt.
		problems = append(problems, checkStores(snap, m, v)...)
	}
	if len(problems) > 0 {
		if len(problems) > maxProblems {
			problems = append(problems[:maxProblems], fmt.Sprintf("and %d more", len(problems)-maxProblems))
		}
		if unreadable == len(problems) {
			return v, fmt.Errorf("index: %s: %w: %s: ask the snapshot's owner to make it readable (chmod -R a+rX on the index directory), or crawl into an index directory of your own",
				snap, fs.ErrPermission, strings.Join(problems, "; "))
		}
		return v, fmt.Errorf("%w: %s: %s", ErrCorrupt, snap, strings.Join(problems, "; "))
	}
	return v, nil
}

func hashFile(p string) (int64, string, error) {
	f, _, err := openRegular(p) // a FIFO would hang the check, /dev/zero never end it
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return n, hex.EncodeToString(h.Sum(nil)), err
}

// checkStores opens store.db and both Bleve indexes read-only and checks them.
func checkStores(snap string, m *Manifest, v *Verification) (problems []string) {
	searched := map[string][]string{} // the versions each segment searches, by segment name
	db, err := openStore(filepath.Join(snap, StoreFile))
	if err != nil {
		return []string{fmt.Sprintf("%s does not open: %v", StoreFile, err)}
	}
	defer db.Close()
	err = viewGuarded(db, filepath.Join(snap, StoreFile), func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			problems = append(problems, fmt.Sprintf("%s: %v", StoreFile, err))
		}
		for _, b := range catalogBuckets {
			if tx.Bucket(b) == nil {
				problems = append(problems, fmt.Sprintf("%s has no %s bucket", StoreFile, b))
			}
		}
		if len(problems) > 0 {
			return nil
		}
		if f, err := strconv.Atoi(string(tx.Bucket(bucketMeta).Get([]byte("format")))); err != nil || f != m.Format {
			problems = append(problems, fmt.Sprintf("%s records format %q, the manifest %d", StoreFile, tx.Bucket(bucketMeta).Get([]byte("format")), m.Format))
		}
		v.Versions = tx.Bucket(bucketPackages).Stats().KeyN
		// A commit updates the counts and the segments' live documents from what it changed
		// (see changedCounts): here they are counted anew from the catalog.
		counts, err := catalogCounts(tx)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(counts, m.Counts) && !(len(counts) == 0 && len(m.Counts) == 0) {
			problems = append(problems, fmt.Sprintf("%s holds the counts %+v, the manifest says %+v", StoreFile, counts, m.Counts))
		}
		return tx.Bucket(bucketWhere).ForEach(func(k, seg []byte) error {
			searched[string(seg)] = append(searched[string(seg)], string(k))
			return nil
		})
	})
	if err != nil {
		problems = append(problems, fmt.Sprintf("%s: %v", StoreFile, err))
	}
	// Every segment's Bleve index and rank index must open and hold the same documents.
	for _, seg := range m.Segments {
		if !validSegmentName(seg.Name) {
			problems = append(problems, fmt.Sprintf("the manifest lists a segment named %q", seg.Name))
			continue
		}
		dir := m.segmentPath(snap, seg.Name)
		idx, err := openBleve(filepath.Join(dir, SearchDir))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s/%s does not open: %v", seg.Name, SearchDir, err))
			continue
		}
		n, err := docCount(idx, filepath.Join(dir, SearchDir))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s/%s: %v", seg.Name, SearchDir, err))
		}
		closeBleve(idx, filepath.Join(dir, SearchDir))
		v.SearchDocs += n
		rs, err := openRankSegment(filepath.Join(dir, RankFile))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s/%s does not open: %v", seg.Name, RankFile, err))
			continue
		}
		if uint64(rs.docs) != n {
			problems = append(problems, fmt.Sprintf("%s/%s ranks %d documents, %s holds %d", seg.Name, RankFile, rs.docs, SearchDir, n))
		}
		rs.close()
		ds, err := openDocStore(filepath.Join(dir, DocsFile))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s/%s does not open: %v", seg.Name, DocsFile, err))
			continue
		}
		if err := ds.check(); err != nil {
			problems = append(problems, fmt.Sprintf("%s/%s: %v", seg.Name, DocsFile, err))
		}
		if d := ds.documents(); uint64(d) != n {
			problems = append(problems, fmt.Sprintf("%s/%s holds versions of %d search documents, %s holds %d", seg.Name, DocsFile, d, SearchDir, n))
		}
		live := 0
		for _, k := range searched[seg.Name] {
			if e, ok := ds.entries[k]; ok {
				live += e.searchDocs
			} else {
				problems = append(problems, fmt.Sprintf("%s/%s does not hold %s, which %s says it searches", seg.Name, DocsFile, keyRef(k), StoreFile))
			}
		}
		if live != seg.Live {
			problems = append(problems, fmt.Sprintf("%s searches %d documents, the manifest says %d", seg.Name, live, seg.Live))
		}
		ds.close()
	}
	return problems
}

// viewGuarded runs fn in a read transaction of db (the bbolt file path), a panic or a fault on
// its mapped pages becoming an error that names the file.
func viewGuarded(db *bolt.DB, path string, fn func(*bolt.Tx) error) (err error) {
	defer guard(&err, path)()
	return db.View(fn)
}

// docCount is idx.DocCount, a panic in Bleve becoming an error that names path.
func docCount(idx bleve.Index, path string) (n uint64, err error) {
	defer guard(&err, path)()
	return idx.DocCount()
}
