//go:build windows

package hello

// PlatformName returns the operating system name.
func PlatformName() string { return "windows" }

// WindowsOnly exists on Windows only.
func WindowsOnly() {}
