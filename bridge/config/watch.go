package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// fileStamp is what Changed compares: size and modification time.
type fileStamp struct {
	size    int64
	modTime time.Time
}

func stampOf(path string) (fileStamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{size: fi.Size(), modTime: fi.ModTime()}, nil
}

// Watch polls the file cfg was loaded from every interval until ctx is
// done, and calls onChange with the newly loaded config (or the error loading
// it) each time the file changes. A file that fails to load is reported once
// per change; a file written again with the bytes last loaded (touched, or
// rewritten as it was by a client that owns it) is no change. onChange runs
// on the caller's goroutine, which Watch blocks. It returns ctx.Err().
func Watch(ctx context.Context, cfg *File, interval time.Duration, onChange func(*File, error)) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	last, lastSum := cfg.stamp, cfg.sum
	// A change is acted on once the file has looked the same for two polls
	// in a row: a writer that truncates the file and then writes it (most
	// editors, os.WriteFile) must not be read half-written.
	var seen fileStamp
	var seenErr error
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		now, err := stampOf(cfg.Path)
		if err == nil && now == last {
			seen, seenErr = fileStamp{}, nil
			continue
		}
		if now != seen || (err == nil) != (seenErr == nil) {
			seen, seenErr = now, err
			continue // not settled yet: look again next tick
		}
		last = now
		if errors.Is(err, fs.ErrNotExist) {
			onChange(nil, fmt.Errorf("reading config %s: %w", cfg.Path, ErrNotFound))
			continue
		}
		if err != nil {
			onChange(nil, fmt.Errorf("reading config: %w", err))
			continue
		}
		next, err := Load(cfg.Path)
		if err == nil {
			if next.sum == lastSum {
				continue
			}
			lastSum = next.sum
		}
		onChange(next, err)
	}
}
