package index_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/docidx/docidx/index"
)

// A second writer names the command that holds the writer lock and its process id, whichever
// command it is.
func TestBusyNamesHolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no writer lock without flock")
	}
	dir := build(t, goModule("v0.9.0"))
	want := func(t *testing.T, command string) {
		t.Helper()
		_, err := index.Create(dir)
		var busy *index.BusyError
		if !errors.As(err, &busy) {
			t.Fatalf("Create while %s writes: err = %v, want a *BusyError", command, err)
		}
		if busy.Command != command || busy.PID != os.Getpid() || busy.Dir != dir {
			t.Errorf("BusyError = %+v, want command %s, pid %d, dir %s", busy, command, os.Getpid(), dir)
		}
		msg := "another docidx " + command + " (pid "
		if !strings.Contains(err.Error(), msg) || !strings.HasSuffix(err.Error(), "is writing the index at "+dir+"; wait for it to finish") {
			t.Errorf("err = %q, want it to say %q", err, msg)
		}
	}

	t.Run("compact", func(t *testing.T) {
		w, err := index.CreateFor(dir, "compact")
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		want(t, "compact")
	})

	t.Run("unpack", func(t *testing.T) {
		pr, pw := io.Pipe()
		done := make(chan error)
		go func() {
			_, err := index.Install(dir, pr)
			done <- err
		}()
		// Install holds the lock while it waits for the archive's first bytes.
		pw.Write([]byte{0})
		want(t, "unpack")
		pw.CloseWithError(errors.New("test: archive cut short"))
		if err := <-done; err == nil {
			t.Error("Install of a cut archive succeeded")
		}
	})

	t.Run("unknown holder", func(t *testing.T) {
		// The holder has not recorded itself, or the file holds something else: it is
		// not echoed.
		w, err := index.CreateFor(dir, "compact")
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		if err := os.WriteFile(filepath.Join(dir, ".lock"), []byte("\x1b[2J 12\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = index.Create(dir)
		if err == nil || err.Error() != "another docidx command is writing the index at "+dir+"; wait for it to finish" {
			t.Errorf("err = %v", err)
		}
	})
}
