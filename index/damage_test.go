package index_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/index"
)

// damageFixture builds a snapshot with something in every file (an older version too) and
// returns the index directory and its generation directory.
func damageFixture(t *testing.T) (dir, gen string) {
	t.Helper()
	dir = build(t, goModule("v0.6.0"), goModule("v0.7.0"),
		npmPackage("commander", "12.1.0", "the complete solution for node.js command-line programs"))
	name, err := index.Current(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, name)
}

// snapshotFiles returns the files and directories of the current snapshot of the index
// directory dir that a damage test breaks in turn, as slash paths relative to dir: each file the
// snapshot's readers open, and one zap segment of each search index.
func snapshotFiles(t *testing.T, dir string) []string {
	t.Helper()
	name, err := index.Current(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := []string{name + "/" + index.ManifestFile, name + "/" + index.StoreFile, "seg-000001/" + index.RankFile, "seg-000001/" + index.DocsFile}
	for _, s := range []string{"seg-000001/" + index.SearchDir} {
		files = append(files, s, s+"/index_meta.json", s+"/store/root.bolt")
		zaps, err := filepath.Glob(filepath.Join(dir, s, "store", "*.zap"))
		if err != nil || len(zaps) == 0 {
			t.Fatalf("%s has no zap segment (%v)", s, err)
		}
		files = append(files, s+"/store/"+filepath.Base(zaps[0]))
	}
	return files
}

// damage is one way a file gets broken. apply breaks path (a file or a directory, as dir says);
// ok is false for the damages that do not apply.
type damage struct {
	name  string
	apply func(t *testing.T, path string, dir bool) (ok bool)
}

var damages = []damage{
	{"truncated to half", func(t *testing.T, p string, dir bool) bool {
		if dir {
			return false
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, fi.Size()/2); err != nil {
			t.Fatal(err)
		}
		return true
	}},
	{"emptied", func(t *testing.T, p string, dir bool) bool {
		if dir {
			return false
		}
		if err := os.Truncate(p, 0); err != nil {
			t.Fatal(err)
		}
		return true
	}},
	{"garbage", func(t *testing.T, p string, dir bool) bool {
		if dir {
			return false
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		junk := make([]byte, max(fi.Size(), 64))
		for i := range junk {
			junk[i] = byte(i*131 + 7)
		}
		if err := os.WriteFile(p, junk, 0o644); err != nil {
			t.Fatal(err)
		}
		return true
	}},
	{"removed", func(t *testing.T, p string, dir bool) bool {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
		return true
	}},
	{"a FIFO", func(t *testing.T, p string, dir bool) bool {
		if dir {
			return false
		}
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := mkfifo(p); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
		return true
	}},
	{"a symlink to /dev/zero", func(t *testing.T, p string, dir bool) bool {
		if _, err := os.Stat("/dev/zero"); err != nil || dir {
			return false
		}
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/zero", p); err != nil {
			t.Fatal(err)
		}
		return true
	}},
	{"unreadable", func(t *testing.T, p string, dir bool) bool {
		if os.Geteuid() == 0 {
			return false // root reads it all the same
		}
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) }) // for t.TempDir's removal
		return true
	}},
}

// A flipped bit in a stored value of docs.dat, which open does not read, is found when the value
// is: reading that version's documents is an error naming the file, never other text, while
// searches and the other versions still answer; docidx verify finds it too.
func TestDocStoreValueFlipped(t *testing.T) {
	dir, _ := damageFixture(t)
	path := filepath.Join(dir, "seg-000001", index.DocsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len("DOCIDXD1")+5] ^= 0x20 // in the first value: the documents of the first version by key
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir)
	_, err = r.Documents(goModule("v0.6.0").Package.Ref())
	if !errors.Is(err, index.ErrCorrupt) {
		t.Fatalf("Documents of the flipped value: %v, want ErrCorrupt", err)
	}
	checkDamageError(t, err, index.DocsFile)
	if _, err := r.Documents(docidx.Ref{Ecosystem: docidx.NPM, Name: "commander", Version: "12.1.0"}); err != nil {
		t.Errorf("Documents of another version: %v", err)
	}
	if hits := search(t, r, index.Query{Text: "commander options"}); len(hits) == 0 {
		t.Error("no hits")
	}
	if _, err := index.Verify(context.Background(), dir, t.TempDir()); !errors.Is(err, index.ErrCorrupt) || !strings.Contains(err.Error(), index.DocsFile) {
		t.Errorf("verify: %v, want ErrCorrupt naming %s", err, index.DocsFile)
	}
}

// Open reads no file whole and opens no search index: damage that only the checksum of a
// segment's rank.idx shows, or inside a zap segment of its search index, leaves Open and the
// reads of the catalog and the documents as they are, and is the error of every search (and of
// Prepare), naming the file.
func TestOpenLeavesSearchFilesToSearches(t *testing.T) {
	for _, d := range []struct {
		name   string
		file   func(t *testing.T, dir string) string
		damage func(path string) error
	}{
		{"rank.idx flipped", func(t *testing.T, dir string) string {
			return filepath.Join(dir, "seg-000001", index.RankFile)
		}, func(path string) error {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			data[len(data)/2] ^= 0x01
			return os.WriteFile(path, data, 0o644)
		}},
		{"zap truncated", func(t *testing.T, dir string) string {
			zaps, err := filepath.Glob(filepath.Join(dir, "seg-000001", index.SearchDir, "store", "*.zap"))
			if err != nil || len(zaps) == 0 {
				t.Fatalf("no zap segment (%v)", err)
			}
			return zaps[0]
		}, func(path string) error {
			fi, err := os.Stat(path)
			if err != nil {
				return err
			}
			return os.Truncate(path, fi.Size()/2)
		}},
	} {
		t.Run(d.name, func(t *testing.T) {
			dir, _ := damageFixture(t)
			ref := goModule("v0.7.0").Package.Ref()
			intact := open(t, dir)
			wantPkg, err := intact.Package(ref)
			if err != nil {
				t.Fatal(err)
			}
			wantDocs, err := intact.Documents(ref)
			if err != nil {
				t.Fatal(err)
			}
			intact.Close()
			path := d.file(t, dir)
			if err := d.damage(path); err != nil {
				t.Fatal(err)
			}
			r, err := index.Open(dir)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer r.Close()
			if p, err := r.Package(ref); err != nil || !reflect.DeepEqual(p, wantPkg) {
				t.Errorf("Package: %+v, %v; want %+v", p, err, wantPkg)
			}
			if docs, err := r.Documents(ref); err != nil || !reflect.DeepEqual(docs, wantDocs) {
				t.Errorf("Documents: %d, %v; want %d", len(docs), err, len(wantDocs))
			}
			rel, _ := filepath.Rel(dir, path)
			for i := range 2 {
				_, err := r.Search(context.Background(), index.Query{Text: "errgroup goroutines"})
				if err == nil {
					t.Fatalf("search %d: no error", i+1)
				}
				checkDamageError(t, err, rel)
			}
			err = r.Prepare()
			if err == nil {
				t.Fatal("Prepare: no error")
			}
			checkDamageError(t, err, rel)
		})
	}
}

// useSnapshot opens dir and makes the requests a server makes, returning the first error.
func useSnapshot(dir string) error {
	r, err := index.Open(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	ref := goModule("v0.7.0").Package.Ref()
	for _, req := range []func() error{
		func() error {
			_, err := r.Search(context.Background(), index.Query{Text: "errgroup goroutines"})
			return err
		},
		func() error {
			_, err := r.Search(context.Background(), index.Query{Text: "errgroup", Version: "v0.6.0"})
			return err
		},
		func() error { _, err := r.Package(ref); return err },
		func() error { _, err := r.Documents(ref); return err },
		func() error { _, err := r.LookupSymbol(ref, "Group"); return err },
		func() error { _, _, err := r.List("", "", "", 10); return err },
	} {
		if err := req(); err != nil {
			return err
		}
	}
	return nil
}

// withinSafetyNet runs f and returns its error; a run that never ends fails the test after a
// generous time rather than hanging the whole suite. This is not a measure of speed.
func withinSafetyNet(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Minute):
		t.Fatal("still running after 2 minutes: hung")
		return nil
	}
}

// Issue 15: every damage of every file of a snapshot is an error that names the file and says
// what to do — at Open or at the request that meets it — never a crash, a hang or a different
// answer.
func TestDamagedSnapshot(t *testing.T) {
	dir, _ := damageFixture(t)
	for _, file := range snapshotFiles(t, dir) {
		for _, d := range damages {
			t.Run(file+"/"+d.name, func(t *testing.T) {
				dir, _ := damageFixture(t)
				path := filepath.Join(dir, filepath.FromSlash(file))
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if !d.apply(t, path, fi.IsDir()) {
					t.Skip("does not apply")
				}
				err = withinSafetyNet(t, func() error { return useSnapshot(dir) })
				if err == nil {
					t.Fatalf("%s %s: the snapshot was used without an error", file, d.name)
				}
				checkDamageError(t, err, file)
			})
		}
	}
}

// checkDamageError checks that err names file and says what to do.
func checkDamageError(t *testing.T, err error, file string) {
	t.Helper()
	msg := err.Error()
	if !strings.Contains(msg, filepath.FromSlash(file)) {
		t.Errorf("error does not name %s: %v", file, err)
	}
	switch {
	case errors.Is(err, fs.ErrPermission):
		if !strings.Contains(msg, "chmod") {
			t.Errorf("permission error says not what to do: %v", err)
		}
	case errors.Is(err, index.ErrCorrupt):
		if !strings.Contains(msg, "docidx verify") {
			t.Errorf("damage error says not what to do: %v", err)
		}
	default:
		t.Errorf("error wraps neither ErrCorrupt nor fs.ErrPermission: %v", err)
	}
}

// The pointer file CURRENT: damaged, it is an error naming it; removed, there is no snapshot.
func TestDamagedCurrent(t *testing.T) {
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			dir, _ := damageFixture(t)
			path := filepath.Join(dir, "CURRENT")
			if !d.apply(t, path, false) {
				t.Skip("does not apply")
			}
			err := withinSafetyNet(t, func() error { return useSnapshot(dir) })
			switch {
			case err == nil:
				t.Fatal("the snapshot was used without an error")
			case d.name == "removed":
				if !errors.Is(err, docidx.ErrNoSnapshot) {
					t.Errorf("%v, want ErrNoSnapshot", err)
				}
			default:
				checkDamageError(t, err, "CURRENT")
			}
		})
	}
}

// CURRENT naming a generation that is not there is damage, not "no snapshot yet".
func TestCurrentNamesMissingGeneration(t *testing.T) {
	dir, _ := damageFixture(t)
	if err := os.WriteFile(filepath.Join(dir, "CURRENT"), []byte("gen-000042\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := index.Open(dir)
	if !errors.Is(err, index.ErrCorrupt) || errors.Is(err, docidx.ErrNoSnapshot) || !strings.Contains(err.Error(), "gen-000042") {
		t.Errorf("%v, want ErrCorrupt naming gen-000042", err)
	}
}

// A store truncated under an open Reader: bbolt reads it from memory mapped from the file, and
// a page past the new end of the file faults. The request gets an error; the process lives.
func TestStoreTruncatedWhileOpen(t *testing.T) {
	dir, gen := damageFixture(t)
	r := open(t, dir)
	ref := goModule("v0.7.0").Package.Ref()
	if _, err := r.Package(ref); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(gen, index.StoreFile), 0); err != nil {
		t.Fatal(err)
	}
	_, err := r.Package(ref)
	if err == nil {
		t.Fatal("Package read a store emptied under it without an error")
	}
	checkDamageError(t, err, index.StoreFile)
}

// A segment that lost its rank.idx is damaged, not silently ranked otherwise.
func TestMissingRankIndex(t *testing.T) {
	dir, _ := damageFixture(t)
	if err := os.Remove(filepath.Join(dir, "seg-000001", index.RankFile)); err != nil {
		t.Fatal(err)
	}
	_, err := index.Open(dir)
	if err == nil {
		t.Fatal("Open succeeded without a segment's rank.idx")
	}
	checkDamageError(t, err, index.RankFile)
}

// A committed generation is readable by every user the umask lets read it: Bleve writes 0700
// directories and 0600 files.
func TestSnapshotModesFollowUmask(t *testing.T) {
	dir, gen := damageFixture(t)
	// What this process's umask gives a new file and directory.
	probe := t.TempDir()
	if err := os.Mkdir(filepath.Join(probe, "d"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(probe, "f"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	dfi, _ := os.Stat(filepath.Join(probe, "d"))
	ffi, _ := os.Stat(filepath.Join(probe, "f"))
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*"))
	for _, root := range append(segs, gen) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			want := ffi.Mode().Perm()
			if d.IsDir() {
				want = dfi.Mode().Perm()
			}
			if fi.Mode().Perm() != want {
				rel, _ := filepath.Rel(dir, p)
				t.Errorf("%s: mode %v, want %v", rel, fi.Mode().Perm(), want)
			}
			return nil
		})
	}
}

// A server follows new generations with a Watcher: one published damaged is refused with an
// error naming the file, and the generation being served goes on answering. That holds for
// damage that only rank.idx's checksum shows too, which Open leaves to the first search: Check
// prepares a generation before it switches to it.
func TestWatcherKeepsServingOverDamagedGeneration(t *testing.T) {
	for _, d := range []struct {
		name   string
		damage func(path string) error
	}{
		{"truncated", func(path string) error { return os.Truncate(path, 10) }},
		{"a flipped bit", func(path string) error {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			data[len(data)/2] ^= 0x08
			return os.WriteFile(path, data, 0o644)
		}},
	} {
		t.Run(d.name, func(t *testing.T) {
			dir, _ := damageFixture(t)
			w, err := index.Watch(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			commit(t, dir, npmPackage("zod", "3.23.8", "TypeScript-first schema validation"))
			name, err := index.Current(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.damage(filepath.Join(dir, "seg-000002", index.RankFile)); err != nil {
				t.Fatal(err)
			}
			switched, err := w.Check()
			if switched || err == nil {
				t.Fatalf("Check switched to %s, damaged (switched %v, err %v)", name, switched, err)
			}
			checkDamageError(t, err, filepath.Join("seg-000002", index.RankFile))
			r, release := w.Acquire()
			defer release()
			if _, err := r.Search(context.Background(), index.Query{Text: "errgroup"}); err != nil {
				t.Errorf("the generation served before: %v", err)
			}
		})
	}
}

// A search segment truncated under an open Reader: zapx reads it from mapped memory, in
// goroutines of Bleve's where a fault cannot be recovered. The search gets an error naming the
// file; the process lives.
func TestSegmentTruncatedWhileOpen(t *testing.T) {
	dir, _ := damageFixture(t)
	r := open(t, dir)
	q := index.Query{Text: "errgroup", Version: "v0.6.0"} // the hits' text is read from Bleve
	if _, err := r.Search(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	zaps, err := filepath.Glob(filepath.Join(dir, "seg-000001", index.SearchDir, "store", "*.zap"))
	if err != nil || len(zaps) == 0 {
		t.Fatalf("no zap segment (%v)", err)
	}
	if err := os.Truncate(zaps[0], 0); err != nil {
		t.Fatal(err)
	}
	_, err = r.Search(context.Background(), q)
	if err == nil {
		t.Fatal("Search read a segment emptied under it without an error")
	}
	rel, _ := filepath.Rel(dir, zaps[0])
	checkDamageError(t, err, rel)
}
