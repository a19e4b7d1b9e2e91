package index

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// BusyError is returned by Create, CreateFor, Install and Merge when another process holds the
// writer lock of the index directory: one docidx command writes a generation at a time.
type BusyError struct {
	Dir     string // the index directory
	Command string // the docidx command holding the lock ("crawl", "compact", ...), "" if unknown
	PID     int    // its process id, 0 if unknown
}

func (e *BusyError) Error() string {
	who := "command"
	if e.Command != "" {
		who = e.Command
	}
	if e.PID > 0 {
		who += fmt.Sprintf(" (pid %d)", e.PID)
	}
	return fmt.Sprintf("another docidx %s is writing the index at %s; wait for it to finish", who, e.Dir)
}

// maxHolder bounds how much of the lock file busyError reads: the holder writes one short line.
const maxHolder = 128

// writeHolder records in the lock file f, just taken, which command holds it and its process
// id, as one line "COMMAND PID", so that a second writer can say who it waits for. A failure
// to record is ignored: the lock itself is what excludes writers.
func writeHolder(f *os.File, command string) {
	if f.Truncate(0) != nil {
		return
	}
	f.WriteAt([]byte(command+" "+strconv.Itoa(os.Getpid())+"\n"), 0)
}

// busyError is the error for a writer that found the lock file f of dir held by another
// process: it names the command and process id the holder recorded (see writeHolder), or
// neither when the holder has not recorded itself yet or the file says something else.
func busyError(f *os.File, dir string) error {
	e := &BusyError{Dir: dir}
	b, _ := io.ReadAll(io.NewSectionReader(f, 0, maxHolder))
	if fields := strings.Fields(string(b)); len(fields) == 2 && validCommand(fields[0]) {
		if pid, err := strconv.Atoi(fields[1]); err == nil && pid > 0 {
			e.Command, e.PID = fields[0], pid
		}
	}
	return e
}

// validCommand reports whether s looks like a docidx command name (lower-case letters and
// dashes), so that whatever else a lock file holds is never echoed.
func validCommand(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range s {
		if (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}
