package main

import (
	"context"
	"errors"
)

func runStats(ctx context.Context, e env) error { return errors.New("stats: not implemented yet") }
