//go:build !race

package main

// raceDetector is true in a -race build, whose memory use (5 to 10 times)
// and speed say nothing of capbridge's own.
const raceDetector = false
