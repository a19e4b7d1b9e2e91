//go:build !race

package main

// raceEnabled is true in a test binary built with -race, whose child processes run several
// times slower: process-heavy tests scale down.
const raceEnabled = false
