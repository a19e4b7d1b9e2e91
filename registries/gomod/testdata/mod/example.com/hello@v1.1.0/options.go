package hello

import (
	"fmt"
	"time"
)

// Options configures a Server.
type Options struct {
	// Network type, either tcp or unix.
	//
	// default: is tcp.
	Network string

	// Addr is the address formatted as host:port.
	Addr string `json:"addr,omitempty"`

	// PoolSize is the maximum number of socket connections.
	// Default is 10 connections per every available CPU.
	PoolSize int

	ReadTimeout, WriteTimeout time.Duration // Timeouts for socket reads and writes.

	// Greeter is embedded: its own fields stay on Greeter.
	*Greeter

	// Limits bounds each connection.
	Limits struct {
		// MaxBytes is the largest message, in bytes.
		MaxBytes int64
		burst    int
	}

	// OldAddr is the former name of Addr.
	//
	// Deprecated: Use Addr.
	OldAddr string

	secret string
	internalOptions
}

type internalOptions struct{ Extra int }

// Checker checks names.
type Checker interface {
	// Check reports whether name can be greeted.
	Check(name string) error
}

// Speaker speaks.
type Speaker interface {
	Checker      // Checker is embedded.
	fmt.Stringer // Stringer names the speaker.
	error

	// Speak says words.
	Speak(words ...string) (n int, err error)
	whisper()
}

// Number is a type set.
type Number interface {
	~int | ~int64
}

// Size units.
const (
	_  = iota
	KB = 1 << (10 * iota) // KB is a kilobyte.
	// MB is a megabyte.
	MB
	GB
)

// Server defaults.
var (
	// DefaultReadTimeout is used when Options.ReadTimeout is zero.
	DefaultReadTimeout time.Duration = 3 * time.Second
	DefaultOptions                   = &Options{Network: "tcp", PoolSize: 10}
	MinPort, MaxPort                 = 1024, 65535 // Port range.
)

// Level is a log level.
type Level uint8

// Log levels.
const (
	Debug Level = iota + 1 // Debug is verbose.
	Info                   // Info is the default.
)
