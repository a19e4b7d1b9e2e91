package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestSnapshotScripts runs the scripts in testdata/snapshot: pack, unpack, verify, serving an
// archive, damaged and newer-format archives, prune. They get two commands of their own:
//
//	flipbyte FILE OFFSET [OUT]          flip one bit of the byte at OFFSET (negative: from the end)
//	forgeformat ARCHIVE FORMAT OUT      repack ARCHIVE with its manifest claiming snapshot FORMAT
func TestSnapshotScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/snapshot",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_CACHE_HOME", env.WorkDir+"/home/.cache")
			return setupScript(env)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"flipbyte":    cmdFlipByte,
			"forgeformat": cmdForgeFormat,
		},
	})
}

func cmdFlipByte(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: flipbyte FILE OFFSET [OUT]")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	off, err := strconv.Atoi(args[1])
	ts.Check(err)
	if off < 0 {
		off += len(data)
	}
	if off < 0 || off >= len(data) {
		ts.Fatalf("offset %s outside %d bytes", args[1], len(data))
	}
	data[off] ^= 0x10
	out := args[0]
	if len(args) == 3 {
		out = args[2]
	}
	ts.Check(os.WriteFile(ts.MkAbs(out), data, 0o644))
}

func cmdForgeFormat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: forgeformat ARCHIVE FORMAT OUT")
	}
	format, err := strconv.Atoi(args[1])
	ts.Check(err)
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	zr, err := zstd.NewReader(f)
	ts.Check(err)
	defer zr.Close()
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf)
	ts.Check(err)
	tr, tw := tar.NewReader(zr), tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		ts.Check(err)
		body, err := io.ReadAll(tr)
		ts.Check(err)
		if h.Name == "manifest.json" {
			var m map[string]any
			ts.Check(json.Unmarshal(body, &m))
			m["format"] = format
			body, err = json.Marshal(m)
			ts.Check(err)
			h.Size = int64(len(body))
		}
		ts.Check(tw.WriteHeader(h))
		_, err = tw.Write(body)
		ts.Check(err)
	}
	ts.Check(tw.Close())
	ts.Check(zw.Close())
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), buf.Bytes(), 0o644))
}
