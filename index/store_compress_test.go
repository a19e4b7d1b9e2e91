package index

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/docidx/docidx"
)

// A large value is stored compressed and read back as written; a value of format 1 (plain
// JSON) reads as it did; a damaged frame is an error, never a shorter value.
func TestStoreValues(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), StoreFile), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	syms := []docidx.Symbol{}
	for i := range 50 {
		syms = append(syms, docidx.Symbol{Kind: docidx.KindFunc, Name: "F", QualifiedName: "pkg.F" + strings.Repeat("x", i), Doc: "F does a thing that takes some words to say."})
	}
	small := []docidx.Symbol{{Kind: docidx.KindFunc, Name: "G", QualifiedName: "pkg.G"}}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket(bucketSymbols)
		if err != nil {
			return err
		}
		if err := putJSON(b, []byte("large"), syms); err != nil {
			return err
		}
		if err := putJSON(b, []byte("small"), small); err != nil {
			return err
		}
		// As format 1 wrote every value.
		if err := b.Put([]byte("plain"), []byte(`[{"kind":"func","name":"H","qualifiedName":"pkg.H"}]`)); err != nil {
			return err
		}
		large := b.Get([]byte("large"))
		if !bytes.HasPrefix(large, zstdMagic) || len(large) >= minCompressed {
			t.Errorf("a value of %d symbols stored in %d bytes, not compressed", len(syms), len(large))
		}
		damaged := bytes.Clone(large)
		damaged[len(damaged)/2] ^= 0xff
		damaged = damaged[:len(damaged)-3]
		return b.Put([]byte("damaged"), damaged)
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSymbols)
		var got []docidx.Symbol
		if ok, err := getJSON(b, []byte("large"), &got); !ok || err != nil || len(got) != len(syms) || got[49].QualifiedName != syms[49].QualifiedName {
			t.Errorf("large: %d symbols, %v", len(got), err)
		}
		got = nil
		if ok, err := getJSON(b, []byte("small"), &got); !ok || err != nil || len(got) != 1 || got[0].QualifiedName != "pkg.G" {
			t.Errorf("small: %+v, %v", got, err)
		}
		got = nil
		if ok, err := getJSON(b, []byte("plain"), &got); !ok || err != nil || len(got) != 1 || got[0].QualifiedName != "pkg.H" {
			t.Errorf("plain: %+v, %v", got, err)
		}
		got = nil
		if _, err := getJSON(b, []byte("damaged"), &got); !errors.Is(err, docidx.ErrFormat) {
			t.Errorf("damaged: %d symbols, %v", len(got), err)
		}
		return nil
	})
}
