//go:build !unix

package index

import "os"

// mapFile reads path into memory where mapping files is not supported here, and returns its
// bytes and a no-op release.
func mapFile(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
